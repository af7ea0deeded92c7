package decode

import (
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// No setting removes the source bound: with MaxSrcLen 0 (or above the
// hard bound) a line of about 6,000 tokens is decoded from its first 4096
// tokens and a warning names the line; scoring refuses a reference beyond
// the bound.
func TestHardSourceBound(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := Defaults()
	o.Greedy, o.Beam, o.MaxLenA, o.MaxLenB = true, 1, 0, 1
	long := strings.Repeat("the cat sat on the mat ", 1000)
	tr := testTranslator(t, b, o)
	tr.MaxSrcLen = 0
	var warn strings.Builder
	tr.Warn = &warn
	if _, err := tr.Lines([]string{long}, "en", "de", ""); err != nil {
		t.Fatal(err)
	}
	if tr.Stats.SrcTokens != 4096 || !strings.Contains(warn.String(), "truncated to 4096") {
		t.Errorf("MaxSrcLen 0: %d source tokens decoded, warning %q; want the hard bound 4096", tr.Stats.SrcTokens, warn.String())
	}
	for limit, want := range map[int]int{0: 4096, 1 << 20: 4096, 100: 100} {
		tr.MaxSrcLen = limit
		if got := tr.SrcLimit(); got != want {
			t.Errorf("MaxSrcLen %d: limit %d, want %d", limit, got, want)
		}
	}
	if _, err := tr.ScoreLines([]string{"a"}, []string{long}, "en", "de"); err == nil || !strings.Contains(err.Error(), "at most 4096") {
		t.Errorf("scoring a reference beyond the bound: %v", err)
	}
}
