// Package decode turns a trained model into translations: beam search and
// greedy search with fairseq's semantics over incremental decoder state,
// batched streaming translation that keeps the input order, teacher-forced
// scoring of references, and attention weights for plots. docs/decoding.md
// describes the semantics and the decisions taken where fairseq leaves a
// choice.
package decode

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
)

// Options configure a search. The zero value is not valid; start from
// Defaults.
type Options struct {
	// Beam is the beam size; 1 with Greedy false is a beam search of one
	// (which gives the greedy result, at beam-search cost).
	Beam int
	// Greedy takes the most probable token at every step (no beam).
	Greedy bool
	// LenPen is fairseq's length penalty: a finished hypothesis scores
	// Σ log p (EOS included) / length^LenPen, length counting the EOS.
	LenPen float64
	// MaxLenA and MaxLenB bound the output to a·src_len + b tokens (EOS
	// not counted), src_len being the encoder input length with its tag and
	// EOS, as fairseq counts it.
	MaxLenA float64
	MaxLenB int
	// BatchMaxLen computes max_len from the padded width of the batch, as
	// fairseq does, instead of from each sentence's own length (the
	// default, which makes a sentence's output independent of its batch).
	BatchMaxLen bool
	// RepeatStop forces EOS once a hypothesis ends in degenerate
	// repetition: its last max(RepeatStop, 3·p) tokens are one block of p
	// tokens repeated, for some p from 1 to MaxRepeatBlock (0: off). A
	// model that has begun to loop (on emoji, say, or a line unlike its
	// training data) would otherwise go on until max_len, costing the
	// whole output budget for nothing.
	RepeatStop int
	// MinLen forbids EOS before this many tokens have been generated.
	MinLen int
	// UnkPenalty is subtracted from the log-probability of <unk>.
	UnkPenalty float64
	// NoRepeatNgram forbids any n-gram of this size from occurring twice in
	// the decoder input (0: off).
	NoRepeatNgram int
	// NBest is the number of hypotheses returned per sentence (≤ Beam),
	// or, with Sampling, the number of samples drawn per sentence.
	NBest int
	// Sampling, when On, samples outputs instead of searching (Beam and
	// Greedy are not used).
	Sampling Sampling
	// ComputeType is "float32" or "int8" (every matrix product of the
	// model in int8 with float32 scales, docs/decoding.md). "" is float32
	// for NewSearcher; Bundle.Searcher makes it the model files' own type
	// (Bundle.DefaultComputeType), and Searcher.SetOptions the searcher's.
	ComputeType string
	// Shortlist is a shortlist file (strata shortlist): each batch is
	// decoded over the target tokens its sources' lists allow ("": the
	// whole vocabulary).
	Shortlist string
	// CacheType is the storage of the decoder's self-attention keys and
	// values: "float32", "float16" (half the memory; values rounded to 11
	// significant bits, arithmetic still float32), or "" for the default,
	// float16 with the int8 compute type and float32 otherwise
	// (docs/decoding.md).
	CacheType string
	// Int8Bits is the activation width of int8 products: 8, 7 (the faster
	// AVX2 kernel; docs/decoding.md) or 0 for engine.DefaultInt8Bits.
	// Ignored with float32.
	Int8Bits int
}

// ComputeTypes are the values Options.ComputeType accepts (the engine's
// product formats).
var ComputeTypes = engine.ProductFormats

// CacheTypes are the values Options.CacheType accepts ("" too).
var CacheTypes = engine.CacheFormats

// HalfCache reports whether the options store the decoder cache as
// float16 (CacheType, or its default for the compute type).
func (o Options) HalfCache() bool { return o.Compute().Cache == engine.FormatF16 }

// Compute is the engine's compute type for the options (defaults resolved
// as for a float32 model file: Bundle.Searcher fills ComputeType from the
// files first). Options that do not validate give float32.
func (o Options) Compute() engine.ComputeType {
	ct, err := engine.ParseComputeType(o.ComputeType, o.CacheType, o.Int8Bits)
	if err != nil {
		return engine.Float32Compute
	}
	return engine.ResolveComputeType(ct, engine.FormatAuto)
}

// Defaults are fairseq-generate's defaults.
func Defaults() Options {
	return Options{Beam: 5, LenPen: 1, MaxLenA: 0, MaxLenB: 200, MinLen: 1, NBest: 1}
}

// Validate reports the first bad setting.
func (o Options) Validate() error {
	switch {
	case o.Beam < 1:
		return fmt.Errorf("beam size %d: must be at least 1", o.Beam)
	case o.Sampling.On && o.Greedy:
		return fmt.Errorf("sampling and greedy search exclude each other")
	case o.NBest < 1 || (!o.Greedy && !o.Sampling.On && o.NBest > o.Beam) || (o.Greedy && o.NBest != 1):
		return fmt.Errorf("nbest %d: must be between 1 and the beam size %d (1 with greedy search)", o.NBest, o.Beam)
	case o.MaxLenA < 0 || o.MaxLenB < 0 || (o.MaxLenA == 0 && o.MaxLenB == 0):
		return fmt.Errorf("max_len = %g·src_len + %d: must allow at least one token", o.MaxLenA, o.MaxLenB)
	case o.RepeatStop < 0:
		return fmt.Errorf("repeat stop %d is negative", o.RepeatStop)
	case o.MinLen < 0:
		return fmt.Errorf("min length %d is negative", o.MinLen)
	case o.NoRepeatNgram < 0:
		return fmt.Errorf("no-repeat-ngram size %d is negative", o.NoRepeatNgram)
	}
	if _, err := engine.ParseComputeType(o.ComputeType, o.CacheType, o.Int8Bits); err != nil {
		return err
	}
	return o.Sampling.validate()
}

// MaxRepeatBlock is the longest repeated block RepeatStop looks for.
const MaxRepeatBlock = 8

// DefaultRepeatStop is the RepeatStop of strata translate and serve: 16
// tokens of one block repeated (a token 16 times, a pair 8 times, ..., a
// block of 6-8 tokens three times). It leaves the shipped model's
// recorded outputs (models/l10n-en-de/check.tsv) unchanged.
const DefaultRepeatStop = 16

// repeating reports whether tokens end in one block of 1 to
// MaxRepeatBlock tokens repeated over the last max(n, 3·p) tokens
// (n 0: never).
func repeating(tokens []int32, n int) bool {
	if n <= 0 {
		return false
	}
	for p := 1; p <= MaxRepeatBlock; p++ {
		span := max(n, 3*p)
		if len(tokens) < span {
			continue
		}
		tail := tokens[len(tokens)-span:]
		periodic := true
		for i := p; i < span && periodic; i++ {
			periodic = tail[i] == tail[i-p]
		}
		if periodic {
			return true
		}
	}
	return false
}

// rowsPerSentence is the number of decoder rows a sentence occupies.
func (o Options) rowsPerSentence() int {
	switch {
	case o.Greedy:
		return 1
	case o.Sampling.On:
		return o.NBest
	}
	return o.Beam
}

// maxLen is the longest output (EOS not counted) for a source of srcLen
// tokens.
func (o Options) maxLen(srcLen int) int {
	return max(1, int(o.MaxLenA*float64(srcLen)+float64(o.MaxLenB)))
}

// Hypothesis is one output of a search.
type Hypothesis struct {
	// Tokens are the generated ids after the forced prefix, EOS last
	// (unless the search stopped at max_len in greedy mode).
	Tokens []int32
	// Score is the length-normalised log-probability used for ranking.
	Score float64
	// LogProb is Σ log p over Tokens (with any unknown-token penalty).
	LogProb float64
	// Positional holds each token's log-probability.
	Positional []float32
}
