package metrics

import "testing"

func TestROUGE(t *testing.T) {
	// Hand-computed: hyp "the cat was found under the bed", ref "the cat
	// was under the bed": unigram hits 6 of 7 (P) and 6 of 6 (R); bigrams
	// the-cat, cat-was, under-the, the-bed hit: P 4/6, R 4/5; LCS 6.
	hyp := []string{"The cat was found under the bed."}
	ref := [][]string{{"the cat was under the bed"}}
	got, err := CorpusROUGE(hyp, ref, ROUGEOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := func(p, r float64) float64 { return 100 * 2 * p * r / (p + r) }
	want := []float64{f(6.0/7, 1), f(4.0/6, 4.0/5), f(6.0/7, 1)}
	for i, s := range got {
		if !near(s.F1, want[i], 1e-9) {
			t.Errorf("%s: %v, want %v", s.Name(), s.F1, want[i])
		}
	}
	if got[0].String() != "ROUGE-1 = 92.31 (R = 100.00 P = 85.71)" {
		t.Errorf("String %q", got[0])
	}
	// ROUGE-1.5.5 tokenisation drops non-ASCII letters; Whitespace keeps them.
	r1, _ := NewROUGE(Rouge1, ROUGEOptions{})
	rw, _ := NewROUGE(Rouge1, ROUGEOptions{Whitespace: true})
	if tk := r1.tokens("Été-2 x"); len(tk) != 3 || tk[0] != "t" {
		t.Errorf("rouge155 tokens %q", tk)
	}
	if tk := rw.tokens("Été-2 x"); len(tk) != 2 || tk[0] != "été-2" {
		t.Errorf("whitespace tokens %q", tk)
	}
	if _, err := NewROUGE("3", ROUGEOptions{}); err == nil {
		t.Error("ROUGE-3 accepted")
	}
	if lcsLen([]string{"a", "b", "c", "d"}, []string{"b", "x", "d", "a"}) != 2 {
		t.Error("lcs")
	}
}
