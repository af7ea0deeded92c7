package metrics

import (
	"fmt"
	"math"
	"testing"
)

// The README example used throughout SacreBLEU's test_bleu.py.
var (
	readmeHyps = []string{
		"The dog bit the man.",
		"It wasn't surprising.",
		"The man had just bitten him.",
	}
	readmeRefs = [][]string{
		{"The dog bit the man.", "It was not unexpected.", "The man bit him first."},
		{"The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."},
	}
)

func fp(v float64) *float64 { return &v }

func mustBLEU(t *testing.T, hyps []string, refs [][]string, o BLEUOptions) BLEUScore {
	t.Helper()
	s, err := CorpusBLEU(hyps, refs, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func near(a, b, eps float64) bool { return math.Abs(a-b) < eps }

// Expected values from SacreBLEU's test/test_bleu.py.
func TestCorpusBLEUSacreBLEUCases(t *testing.T) {
	cases := []struct {
		name string
		hyps []string
		opts BLEUOptions
		want float64
	}{
		{"default", readmeHyps, BLEUOptions{}, 48.530827},
		{"empty hyps", []string{"", "", ""}, BLEUOptions{}, 0},
		{"tok none", readmeHyps, BLEUOptions{Tokenize: "none"}, 49.1919566},
		{"tok 13a", readmeHyps, BLEUOptions{Tokenize: "13a"}, 48.530827},
		{"tok intl", readmeHyps, BLEUOptions{Tokenize: "intl"}, 43.91623493},
		{"smooth none", readmeHyps, BLEUOptions{Smooth: "none"}, 48.530827},
	}
	for _, c := range cases {
		s := mustBLEU(t, c.hyps, readmeRefs, c.opts)
		if !near(s.Score, c.want, 1e-8) {
			t.Errorf("%s: BLEU %.10f, want %.10f", c.name, s.Score, c.want)
		}
	}
}

func TestBLEUMaxNgramOrder(t *testing.T) {
	want := []string{"77.65", "60.50", "53.93", "48.53", "46.14", "43.28"}
	for i, w := range want {
		s := mustBLEU(t, readmeHyps, readmeRefs, BLEUOptions{MaxNgramOrder: i + 1})
		if got := fmt.Sprintf("%.2f", s.Score); got != w {
			t.Errorf("order %d: %s, want %s", i+1, got, w)
		}
	}
}

func TestBLEUStringAndSignature(t *testing.T) {
	s := mustBLEU(t, readmeHyps, readmeRefs, BLEUOptions{})
	want := "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
	if s.String() != want {
		t.Errorf("String:\n got %s\nwant %s", s, want)
	}
	if sig := s.Signature(); sig != "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:"+signatureVersion {
		t.Errorf("signature %s", sig)
	}
	s = mustBLEU(t, readmeHyps, readmeRefs[:1], BLEUOptions{Lowercase: true, Smooth: "floor", Tokenize: "intl", EffectiveOrder: true})
	if sig := s.Signature(); sig != "nrefs:1|case:lc|eff:yes|tok:intl|smooth:floor[0.10]|version:"+signatureVersion {
		t.Errorf("signature %s", sig)
	}
	s = mustBLEU(t, readmeHyps, readmeRefs[:1], BLEUOptions{Smooth: "add-k", SmoothValue: fp(2)})
	if sig := s.Signature(); sig != "nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[2.00]|version:"+signatureVersion {
		t.Errorf("signature %s", sig)
	}
}

func TestBLEUVariableReferences(t *testing.T) {
	refs := [][]string{readmeRefs[0], {"The dog had bit the man.", "", "The man had bitten the dog."}}
	s := mustBLEU(t, readmeHyps, refs, BLEUOptions{})
	if s.NRefs != -1 || s.Signature()[:10] != "nrefs:var|" {
		t.Errorf("nrefs %d, signature %s", s.NRefs, s.Signature())
	}
	_, err := CorpusBLEU([]string{"a"}, [][]string{{""}}, BLEUOptions{})
	if _, ok := err.(*EmptyReferenceError); !ok {
		t.Errorf("empty reference: err %v", err)
	}
	_, err = CorpusBLEU([]string{"a", "b"}, [][]string{{"a"}}, BLEUOptions{})
	if _, ok := err.(*LengthError); !ok {
		t.Errorf("length mismatch: err %v", err)
	}
}

// raw_corpus_bleu in SacreBLEU: tokenize none, floor smoothing, effective order.
func rawBLEU(t *testing.T, hyps []string, refs [][]string, floor *float64) BLEUScore {
	return mustBLEU(t, hyps, refs, BLEUOptions{Tokenize: "none", Smooth: "floor", SmoothValue: floor, EffectiveOrder: true})
}

func TestRawBLEU(t *testing.T) {
	cases := []struct {
		hyps []string
		refs [][]string
		want float64
	}{
		{[]string{"this is a test", "another test"}, [][]string{{"ref1", "ref2"}}, 0},
		{[]string{"this is a test"}, [][]string{{"this is a test"}}, 1},
		{[]string{"this is a fest"}, [][]string{{"this is a test"}}, 0.223606797749979},
		{[]string{"test"}, [][]string{{"a test"}}, 0.3678794411714425},
		{[]string{"a test"}, [][]string{{"a test"}}, 1},
		{[]string{"a little test"}, [][]string{{"a test"}}, 0.03218297948685433},
	}
	for _, c := range cases {
		if s := rawBLEU(t, c.hyps, c.refs, fp(0.01)); !near(s.Score/100, c.want, 1e-8) {
			t.Errorf("%q: %.12f, want %.12f", c.hyps, s.Score/100, c.want)
		}
	}
}

func TestBLEUStatisticsAndOffset(t *testing.T) {
	hyp := []string{"am I am a character sequence"}
	ref := [][]string{{"I am a symbol string sequence a a"}}
	s := rawBLEU(t, hyp, ref, fp(0.01))
	if fmt.Sprint(s.Counts, s.Totals) != "[4 2 1 0] [6 5 4 3]" {
		t.Errorf("counts %v totals %v", s.Counts, s.Totals)
	}
	if s := rawBLEU(t, hyp, ref, fp(0)); s.Score != 0 {
		t.Errorf("floor 0: %v", s.Score)
	}
	if s := rawBLEU(t, hyp, ref, nil); !near(s.Score/100, 0.1555722182, 1e-8) {
		t.Errorf("floor default: %.10f", s.Score/100)
	}
}

func bleuFromStats(o BLEUOptions, correct, total []float64, sysLen, refLen float64) float64 {
	b, err := NewBLEU(o)
	if err != nil {
		panic(err)
	}
	st := append([]float64{sysLen, refLen}, correct...)
	return b.ScoreStats(append(st, total...))
}

func TestComputeBLEUFromStats(t *testing.T) {
	got := bleuFromStats(BLEUOptions{Smooth: "none"}, []float64{9, 7, 5, 3}, []float64{10, 8, 6, 4}, 11, 11)
	if !near(got/100, 0.8375922397, 1e-8) {
		t.Errorf("scoring: %.10f", got/100)
	}
	degenerate := []struct {
		correct, total []float64
		sysLen, refLen float64
		floor          float64
	}{
		{[]float64{0, 0, 0, 0}, []float64{4, 4, 2, 1}, 0, 1, 0},
		{[]float64{0, 0, 0, 0}, []float64{10, 11, 12, 0}, 14, 10, 0},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 0, 0, 0},
		{[]float64{6, 5, 4, 0}, []float64{6, 5, 4, 3}, 6, 6, 0},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 0, 0, 0.1},
		{[]float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 1, 5, 0.01},
	}
	for _, d := range degenerate {
		if got := bleuFromStats(BLEUOptions{Smooth: "floor", SmoothValue: fp(d.floor)}, d.correct, d.total, d.sysLen, d.refLen); got != 0 {
			t.Errorf("degenerate %v: %v", d, got)
		}
	}
}

// Expected values from SacreBLEU's test/test_sentence_bleu.py (issue #98).
func TestSentenceBLEU(t *testing.T) {
	const ref = "producţia de zahăr brut se exprimă în zahăr alb;"
	const hyp = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
	cases := []struct {
		smooth string
		value  *float64
		lower  bool
		tok    string
		want   float64
	}{
		{"exp", nil, false, "13a", 8.493},
		{"none", nil, false, "13a", 0},
		{"floor", nil, false, "13a", 4.51688},
		{"floor", fp(0.1), false, "13a", 4.51688},
		{"floor", fp(0.5), false, "13a", 10.10},
		{"add-k", nil, false, "13a", 14.882},
		{"add-k", fp(1), false, "13a", 14.882},
		{"add-k", fp(2), false, "13a", 21.389},
		{"exp", nil, false, "none", 7.347},
		{"exp", nil, false, "intl", 8.493},
		{"exp", nil, false, "char", 40.8759},
		{"exp", nil, true, "char", 42.0267},
	}
	for _, c := range cases {
		s, err := SentenceBLEU(hyp, []string{ref}, BLEUOptions{Smooth: c.smooth, SmoothValue: c.value, Lowercase: c.lower, Tokenize: c.tok})
		if err != nil {
			t.Fatal(err)
		}
		if !near(s.Score, c.want, 1e-3) {
			t.Errorf("%+v: %.5f", c, s.Score)
		}
	}
	// SacreBLEU issue #141: no matching n-gram at all gives 0 whatever the smoothing.
	for _, sm := range []string{"exp", "none", "floor", "add-k"} {
		s, err := SentenceBLEU("this is a cat", []string{"okay thanks"}, BLEUOptions{Smooth: sm})
		if err != nil || s.Score != 0 {
			t.Errorf("#141 %s: %v %v", sm, s.Score, err)
		}
	}
}

func TestBLEUOptionErrors(t *testing.T) {
	for _, o := range []BLEUOptions{{Tokenize: "ja"}, {Smooth: "laplace"}, {MaxNgramOrder: -1}} {
		if _, err := NewBLEU(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
