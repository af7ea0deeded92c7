package decode

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/model"
)

// writeShortlist saves a shortlist allowing the frequent tokens and, for
// every source token, bySource.
func writeShortlist(t *testing.T, frequent, bySource []int32) string {
	t.Helper()
	sl := &Shortlist{Header: ShortlistHeader{Format: shortlistFormat, Version: 1, Vocab: testVocab}, Frequent: frequent,
		BySource: make([][]int32, testVocab)}
	for s := range sl.BySource {
		sl.BySource[s] = bySource
	}
	p := filepath.Join(t.TempDir(), "sl.txt")
	if err := sl.Save(p); err != nil {
		t.Fatal(err)
	}
	back, err := LoadShortlist(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Frequent, sl.Frequent) || !slices.Equal(back.BySource[5], sl.BySource[5]) {
		t.Fatalf("shortlist file round trip: %v / %v", back.Frequent, back.BySource[5])
	}
	return p
}

// A shortlist holding the whole vocabulary decodes exactly as no shortlist,
// in float32 and in int8; a small one only ever produces its tokens, even
// where the model prefers others, and does not fail.
func TestShortlistSearch(t *testing.T) {
	m := tinyModel(t, model.NormPre, 3)
	eosBias(m, 3)
	srcs := randomSources(9, 4)
	all := make([]int32, testVocab)
	for i := range all {
		all[i] = int32(i)
	}
	whole := writeShortlist(t, all, nil)
	few := writeShortlist(t, []int32{7, 8}, []int32{9})
	for _, ct := range []string{"float32", "int8"} {
		o := Defaults()
		o.Beam, o.NBest, o.ComputeType = 4, 2, ct
		want := search(t, m, o, srcs, []int32{data.DecoderStart})
		o.Shortlist = whole
		got := search(t, m, o, srcs, []int32{data.DecoderStart})
		for i := range want {
			for j := range want[i] {
				if !slices.Equal(got[i][j].Tokens, want[i][j].Tokens) || got[i][j].Score != want[i][j].Score {
					t.Fatalf("%s: the whole vocabulary as shortlist gives %v (%v) for sentence %d, full decoding %v (%v)",
						ct, got[i][j].Tokens, got[i][j].Score, i, want[i][j].Tokens, want[i][j].Score)
				}
			}
		}
		o.Shortlist = few
		outside := false
		for i, hyps := range search(t, m, o, srcs, []int32{data.DecoderStart}) {
			if len(hyps) == 0 {
				t.Fatalf("%s: no hypothesis for sentence %d under a small shortlist", ct, i)
			}
			for _, h := range hyps {
				for _, tok := range h.Tokens {
					if !slices.Contains([]int32{7, 8, 9, data.EOSID, data.UNKID}, tok) {
						t.Fatalf("%s: token %d outside the shortlist in %v", ct, tok, h.Tokens)
					}
				}
			}
			for _, tok := range want[i][0].Tokens {
				outside = outside || !slices.Contains([]int32{7, 8, 9, data.EOSID}, tok)
			}
		}
		if !outside {
			t.Fatalf("%s: the full search never chose a token outside the small shortlist; the test shows nothing", ct)
		}
	}
	o := Defaults()
	o.Shortlist = filepath.Join(t.TempDir(), "missing.txt")
	if _, err := NewSearcher(m, o); err == nil {
		t.Error("a missing shortlist file was accepted")
	}
}

// An unknown compute type is refused (quality of int8 search is tested on
// a trained model: cmd/strata's TestQuantizedQuickstart).
func TestComputeTypeValidated(t *testing.T) {
	o := Defaults()
	o.ComputeType = "int4"
	if _, err := NewSearcher(tinyModel(t, model.NormPre, 5), o); err == nil {
		t.Error("compute type int4 was accepted")
	}
}

// Coverage forms the unions of consecutive batches and counts the reference
// tokens and lines inside them.
func TestShortlistCoverage(t *testing.T) {
	sl := &Shortlist{Header: ShortlistHeader{Vocab: 20}, Frequent: []int32{5}, BySource: make([][]int32, 20)}
	sl.BySource[10] = []int32{11, 12}
	sl.BySource[13] = []int32{14}
	srcs := [][]int32{{10}, {13}, {10, 13}}
	refs := [][]int32{{11, 5, 14}, {14, 5}, {12, 15}}
	// batch 1: unions {eos, unk, 5, 11, 12}, {eos, unk, 5, 14}, {eos, unk, 5, 11, 12, 14}
	c := sl.Coverage(srcs, refs, 1)
	if c.MeanRows != 5 || c.RefTokens != 5.0/7 || c.RefLines != 1.0/3 {
		t.Fatalf("batch 1: %+v, want 5 rows, 5/7 tokens, 1/3 lines", c)
	}
	// batch 2: {eos, unk, 5, 11, 12, 14} then the third alone
	c = sl.Coverage(srcs, refs, 2)
	if c.MeanRows != 6 || c.RefTokens != 6.0/7 || c.RefLines != 2.0/3 {
		t.Fatalf("batch 2: %+v, want 6 rows, 6/7 tokens, 2/3 lines", c)
	}
}
