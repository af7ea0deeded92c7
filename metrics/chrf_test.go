package metrics

import "testing"

func mustCHRF(t *testing.T, hyps []string, refs [][]string, o CHRFOptions) CHRFScore {
	t.Helper()
	s, err := CorpusCHRF(hyps, refs, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Expected values from SacreBLEU's test/test_chrf.py (beta 3 there).
func TestCHRFSacreBLEUCases(t *testing.T) {
	type tc struct {
		hyps, refs []string
		want       float64
	}
	eps := []tc{
		{[]string{"abcdefg"}, []string{"hijklmnop"}, 0},
		{[]string{"a"}, []string{"b"}, 0},
		{[]string{""}, []string{"b"}, 0},
		{[]string{""}, []string{"ref"}, 0},
		{[]string{""}, []string{"reference"}, 0},
		{[]string{"aa"}, []string{"ab"}, 8.3333},
		{[]string{"a", "b"}, []string{"a", "c"}, 8.3333},
		{[]string{"a"}, []string{"a"}, 16.6667},
		{[]string{"a b c"}, []string{"a b c"}, 50.0},
		{[]string{"a b c"}, []string{"abc"}, 50.0},
		{[]string{" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."},
			[]string{"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."}, 63.361730},
		{[]string{" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "},
			[]string{"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}, 64.1302698},
		{[]string{"Niemand hat die Absicht, eine Mauer zu errichten"}, []string{"Niemand hat die Absicht, eine Mauer zu errichten"}, 100},
	}
	for _, c := range eps {
		s := mustCHRF(t, c.hyps, [][]string{c.refs}, CHRFOptions{Beta: 3, EpsSmoothing: true})
		if !near(s.Score, c.want, 1e-4) {
			t.Errorf("eps %q: %.6f, want %.6f", c.hyps, s.Score, c.want)
		}
	}
	eff := []tc{
		{[]string{"a"}, []string{"a"}, 100},
		{[]string{""}, []string{"reference"}, 0},
		{[]string{"a b c"}, []string{"a b c"}, 100},
		{[]string{"a b c"}, []string{"abc"}, 100},
		{[]string{""}, []string{"c"}, 0},
		{[]string{"a", "b"}, []string{"a", "c"}, 50},
		{[]string{"aa"}, []string{"ab"}, 25},
	}
	for _, c := range eff {
		s := mustCHRF(t, c.hyps, [][]string{c.refs}, CHRFOptions{Beta: 3})
		if !near(s.Score, c.want, 1e-4) {
			t.Errorf("eff %q: %.6f, want %.6f", c.hyps, s.Score, c.want)
		}
	}
	ws := []tc{
		{[]string{"Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."},
			[]string{"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}, 67.3481606},
		{[]string{"risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."},
			[]string{"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."}, 65.2414427},
	}
	for _, c := range ws {
		s := mustCHRF(t, c.hyps, [][]string{c.refs}, CHRFOptions{Beta: 3, Whitespace: true})
		if !near(s.Score, c.want, 1e-4) {
			t.Errorf("whitespace %q: %.6f, want %.6f", c.hyps, s.Score, c.want)
		}
	}
}

func TestSentenceCHRF(t *testing.T) {
	cases := []struct {
		hyp, ref string
		want     float64
	}{
		{"Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
			"Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.", 39.14078509},
		{"Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
			"A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.", 31.22557079},
		{"Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
			"Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.", 57.15704367},
	}
	for _, c := range cases {
		s, err := SentenceCHRF(c.hyp, []string{c.ref}, CHRFOptions{EpsSmoothing: true})
		if err != nil {
			t.Fatal(err)
		}
		if !near(s.Score, c.want, 1e-4) {
			t.Errorf("%q: %.8f, want %.8f", c.hyp, s.Score, c.want)
		}
	}
}

func TestCHRFNameSignature(t *testing.T) {
	s := mustCHRF(t, []string{"a b"}, [][]string{{"a b"}}, CHRFOptions{WordOrder: 2})
	if s.Name != "chrF2++" || s.String() != "chrF2++ = 100.00" {
		t.Errorf("name %q string %q", s.Name, s)
	}
	if sig := s.Signature(); sig != "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:"+signatureVersion {
		t.Errorf("signature %s", sig)
	}
}

func TestCHRFWords(t *testing.T) {
	got := chrfWords("(hi) a, .b c")
	want := []string{"(hi", ")", "a", ",", ".", "b", "c"}
	if len(got) != len(want) {
		t.Fatalf("%q", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%q", got)
		}
	}
}

// With several references chrF keeps the statistics of the reference with
// the best sentence-level F.
func TestCHRFMultiReference(t *testing.T) {
	one := mustCHRF(t, []string{"the cat sat"}, [][]string{{"the cat sat"}}, CHRFOptions{})
	two := mustCHRF(t, []string{"the cat sat"}, [][]string{{"a dog stood"}, {"the cat sat"}}, CHRFOptions{})
	if one.Score != 100 || two.Score != 100 || two.NRefs != 2 {
		t.Errorf("one %v two %v", one, two)
	}
}
