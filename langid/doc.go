// Package langid identifies the language of text lines, as off-target
// rates need (how often a zero-shot model answers in the wrong language).
//
// It reads supervised fastText models itself, in pure Go: dense .bin files
// and product-quantised .ftz files such as lid.176.ftz (Load, Parse), and
// predicts exactly what `fasttext predict-prob MODEL FILE K THRESHOLD`
// prints, digits included (Model.Predict, Stream, AppendProb). Without a
// model, NewFallback gives a much weaker pure-Go trigram detector
// (whatlanggo) whose Name says that it is not fastText. The package sits at
// the bottom of the import graph (it needs nothing of strata);
// docs/langid.md describes the format and the checks against fastText.
package langid
