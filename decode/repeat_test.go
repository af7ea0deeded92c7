package decode

import (
	"math"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// The repetition stop fires once the output ends in one block of 1-8
// tokens repeated over max(n, 3·p) tokens, and not before.
func TestRepeating(t *testing.T) {
	rep := func(block []int32, times int, lead ...int32) []int32 {
		out := append([]int32(nil), lead...)
		for i := 0; i < times; i++ {
			out = append(out, block...)
		}
		return out
	}
	for _, c := range []struct {
		name   string
		tokens []int32
		want   bool
	}{
		{"one token 16 times", rep([]int32{7}, 16, 1, 2), true},
		{"one token 15 times", rep([]int32{7}, 15, 1, 2), false},
		{"a pair 8 times", rep([]int32{7, 8}, 8), true},
		{"a pair 7 times", rep([]int32{7, 8}, 7, 3), false},
		{"8 tokens 3 times", rep([]int32{1, 2, 3, 4, 5, 6, 7, 8}, 3), true},
		{"8 tokens twice", rep([]int32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 9, 9, 9, 9, 9, 9, 9, 9), false},
		{"9 tokens 3 times", rep([]int32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3), false},
		{"no repetition", []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, false},
	} {
		if got := repeating(c.tokens, 16); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if repeating(rep([]int32{7}, 100), 0) {
		t.Error("RepeatStop 0 stopped an output")
	}
}

// In a search, the stop forces EOS: every other token of the row is
// forbidden once the row repeats itself.
func TestRepeatStopForcesEOS(t *testing.T) {
	o := Defaults()
	o.RepeatStop = 16
	r := &run{s: &Searcher{opt: o, pad: data.PadID}}
	lp := make([]float32, 10)
	toks := make([]int32, 16)
	for i := range toks {
		toks[i] = 7
	}
	r.adjust(lp, 16, 100, toks)
	for j, x := range lp {
		if (j == data.EOSID) == math.IsInf(float64(x), -1) {
			t.Fatalf("token %d: log-probability %g after 16 repeats", j, x)
		}
	}
}
