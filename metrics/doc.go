// Package metrics computes machine-translation and summarisation metrics
// whose numbers must agree with the reference implementations that papers
// report: corpus and sentence BLEU and chrF/chrF++ exactly as SacreBLEU 2.x
// computes them, tokenised BLEU as Moses' multi-bleu.perl computes it,
// ROUGE-1/2/L F1 following ROUGE-1.5.5, and paired bootstrap resampling as
// in sacreBLEU's significance module (with numpy's random generator
// reproduced, so the resamples are the same ones).
//
// References are passed as streams, as in SacreBLEU: refs[k][i] is the i-th
// segment of the k-th reference stream. Every metric also implements
// Metric, which exposes per-segment sufficient statistics so that paired
// bootstrap resampling can recompute scores on resampled corpora cheaply.
//
// docs/metrics.md describes each metric, the decisions taken where the
// references are ambiguous, and how to compare with sacrebleu.
package metrics
