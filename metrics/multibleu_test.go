package metrics

import "testing"

func TestMultiBLEU(t *testing.T) {
	// multi-bleu.perl on tokenised text equals SacreBLEU with tok none and
	// no smoothing when every order has a match.
	hyps := []string{"the dog bit the man .", "it was n't surprising .", "the man had just bitten him ."}
	refs := [][]string{{"the dog bit the man .", "it was not unexpected .", "the man bit him first ."}}
	mb, err := CorpusMultiBLEU(hyps, refs, false)
	if err != nil {
		t.Fatal(err)
	}
	sb := mustBLEU(t, hyps, refs, BLEUOptions{Tokenize: "none", Smooth: "none"})
	if !near(mb.Score, sb.Score, 1e-9) || mb.SysLen != sb.SysLen || mb.RefLen != sb.RefLen {
		t.Errorf("multi-bleu %v vs sacrebleu %v", mb, sb)
	}
	want := "BLEU = " + fmtF(sb.Score, 2) + ", 72.2/46.7/33.3/33.3 (BP=1.000, ratio=1.059, hyp_len=18, ref_len=17)"
	if mb.String() != want {
		t.Errorf("String\n got %s\nwant %s", mb, want)
	}
	// -lc lowercases ASCII only, as Perl's lc on bytes does.
	lc, _ := CorpusMultiBLEU([]string{"ÉTÉ Hot"}, [][]string{{"été hot"}}, true)
	if lc.Precisions[0] != 50 {
		t.Errorf("-lc unigram precision %v, want 50 (É is not lowercased)", lc.Precisions[0])
	}
	// Only ASCII whitespace separates tokens; NBSP is part of a token.
	nb, _ := CorpusMultiBLEU([]string{"a\u00a0b c"}, [][]string{{"a\u00a0b c"}}, false)
	if nb.SysLen != 2 {
		t.Errorf("hyp_len %d, want 2", nb.SysLen)
	}
	// Empty references count as length 0 rather than being dropped.
	if _, err := CorpusMultiBLEU([]string{"x"}, [][]string{{""}}, false); err != nil {
		t.Errorf("empty reference: %v", err)
	}
}
