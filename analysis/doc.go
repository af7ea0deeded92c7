// Package analysis holds the apparatus of the zero-shot LayerNorm study
// (Mao et al., ACL 2023): the evaluation matrix over every supervised and
// zero-shot direction of an n-way test set (BLEU, chrF, off-target rate,
// pivot translation through English) and layer-wise language recognition
// (LLR), token-level linear probes on every encoder and decoder layer that
// predict the source or the target language.
//
// docs/zero-shot.md describes the decisions taken where the paper leaves a
// detail open.
package analysis
