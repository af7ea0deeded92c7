// Package subword learns and applies a byte-pair-encoding (BPE) model in the
// style of SentencePiece: text is taken raw (no normalisation, no
// pre-tokenisation), every ASCII space becomes the marker ▁ (U+2581), and the
// model is learned jointly over all languages of a corpus.
//
// # Segmentation rules
//
// A line is cut at every ASCII space (U+0020) into segments; each segment is
// a "word" whose first symbol is the marker (the first word gets a dummy
// marker, as SentencePiece's add_dummy_prefix). So "a  b" is the words ▁a, ▁
// and ▁b, and Decode(Encode(x)) == x for every string x: multiple, leading
// and trailing spaces, tabs, Chinese without word segmentation and invalid
// UTF-8 all survive. Pieces never cross a word boundary (the marker only
// starts a piece) and are at most MaxPieceRunes runes long (16, as
// SentencePiece's max_sentencepiece_length).
//
// No Unicode normalisation is applied (SentencePiece applies NFKC by default,
// which is lossy); callers that want it normalise before encoding.
//
// # Fallback
//
// The model's pieces are, in this order: the 256 byte pieces <0x00>..<0xFF>,
// the alphabet (single characters kept by the character coverage, the marker
// always among them), then one piece per merge. A character outside the
// alphabet, an invalid UTF-8 byte, or a literal U+2581 in the input (which
// must not be confused with an encoded space) is written as the byte pieces
// of its UTF-8 encoding; byte pieces never merge. No input ever becomes an
// unknown token, and Encoder counts every fallback so callers can report it.
//
// # Learning
//
// Learn counts unique words in parallel, then runs the standard BPE merge
// loop on the word-frequency table with incremental pair counts, an index
// from pair to the words containing it, and a lazy max-heap of pair counts,
// so each merge touches only the words that contain the merged pair. Ties
// are broken by the smaller (left, right) piece index pair, so learning is
// deterministic.
//
// # Encoding
//
// Each word is segmented by repeatedly merging the adjacent pair with the
// lowest merge rank (all its occurrences, left to right), which reproduces
// the learner's segmentation of training words. Results are cached per
// word, and EncodeLines spreads lines over goroutines.
package subword
