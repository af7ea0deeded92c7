// Package data turns parallel corpora into what training reads: a joint
// subword vocabulary with fixed special tokens and language tags, corpora
// binarised as token ids, tag schemes, and token-based batches.
//
// # Preparing
//
// Prepare(cfg, outDir, opts) writes a data directory from a Config (YAML via
// LoadConfig, or built in code: set absolute paths or call SetDir first).
// It learns the BPE model (package subword) on both sides of the train
// split, binarises every corpus, and writes manifest.json last; see
// docs/data.md for the config keys and the file formats.
//
// # Token ids
//
// PadID=0, BOSID=1 (<s>), EOSID=2 (</s>), UNKID=3, then one tag per language
// in Vocab.Languages() order (<2de> or __de__), then the subword pieces.
// DecoderStart (</s>, as fairseq) is the first decoder input.
//
// # Sequences
//
// Sequencer applies a TagScheme (none, T-ENC, S-ENC-T-DEC) to piece ids:
//
//	none          enc: x </s>        dec in: </s> y          dec out: y </s>
//	T-ENC         enc: <2t> x </s>   dec in: </s> y          dec out: y </s>
//	S-ENC-T-DEC   enc: <2s> x </s>   dec in: </s> <2t> y     dec out: <pad> y </s>
//
// With S-ENC-T-DEC the target tag is forced at inference (DecoderPrefix), so
// it is not a loss target unless TagInLoss (then dec out starts with <2t>).
//
// # Training and inference
//
// Open(dir) loads a data directory. Dataset.NewBatcher(split, opts) yields
// padded row-major batches of at most MaxTokens positions (padding
// included), grouped by length, shuffled per (seed, epoch), with optional
// temperature sampling over language directions; Position/Seek make an
// epoch resumable from a checkpoint. InferenceBatches encodes raw lines for
// translation and keeps their original order in Batch.Index.
package data
