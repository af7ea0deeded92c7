package langid

import (
	"bytes"
	"math"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestHashSignExtendsBytes(t *testing.T) {
	// Expected values computed independently (Python) with bytes >= 0x80
	// sign-extended, as fastText does; plain FNV-1a gives the second value.
	for _, c := range []struct {
		in         string
		want, fnv1 uint32
	}{
		{"", 2166136261, 2166136261},
		{"</s>", 3617362777, 3617362777},
		{"<de>", 1229870514, 1229870514},
		{"été", 200187927, 4290086935},
		{"中文", 1907909189, 3297308741},
	} {
		if got := hashBytes([]byte(c.in)); got != c.want {
			t.Errorf("hash(%q) = %d, want %d (plain FNV-1a would be %d)", c.in, got, c.want, c.fnv1)
		}
	}
}

// naiveCharNgrams extracts n-grams as strings, one at a time, the way
// Dictionary::computeSubwords reads: it checks the incremental hashing.
func naiveCharNgrams(d *dictionary, word string) []int32 {
	var starts []int // byte offset of each UTF-8 character
	for i := 0; i < len(word); i++ {
		if word[i]&0xC0 != 0x80 {
			starts = append(starts, i)
		}
	}
	starts = append(starts, len(word))
	var ids []int32
	for c := 0; c+1 < len(starts); c++ {
		for n := 1; n <= int(d.maxn) && c+n < len(starts); n++ {
			end := starts[c+n]
			if n < int(d.minn) || (n == 1 && (c == 0 || end == len(word))) {
				continue
			}
			ids = d.pushHash(ids, int32(hashBytes([]byte(word[starts[c]:end]))%uint32(d.bucket)))
		}
	}
	return ids
}

func TestCharNgramsMatchNaive(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, mm := range [][2]int32{{1, 1}, {2, 4}, {3, 6}, {1, 3}} {
		d := &dictionary{nwords: 7, bucket: 1000, minn: mm[0], maxn: mm[1], pruneSize: -1}
		for range 200 {
			w := "<" + randWord(r) + ">"
			got := d.charNgrams(nil, []byte(w))
			want := naiveCharNgrams(d, w)
			if !slices.Equal(got, want) {
				t.Fatalf("minn %d maxn %d word %q: got %v, want %v", mm[0], mm[1], w, got, want)
			}
		}
	}
}

func TestPushHashPruning(t *testing.T) {
	d := &dictionary{nwords: 10, pruneSize: 2, prune: newPruneTable(2)}
	d.prune.put(1, 0)
	d.prune.put(3, 1)
	if got := d.pushHash(d.pushHash(d.pushHash(nil, 1), 2), 3); !slices.Equal(got, []int32{10, 11}) {
		t.Errorf("pruned pushHash = %v, want [10 11] (bucket 2 was pruned)", got)
	}
	d = &dictionary{nwords: 10, pruneSize: 0}
	if got := d.pushHash(nil, 1); len(got) != 0 {
		t.Errorf("fully pruned dictionary pushed %v", got)
	}
	d = &dictionary{nwords: 10, pruneSize: -1}
	if got := d.pushHash(d.pushHash(nil, 5), -1); !slices.Equal(got, []int32{15}) {
		t.Errorf("unpruned pushHash = %v, want [15]", got)
	}
}

func TestHeapKeepsTopKInOrder(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for range 500 {
		n, k := 1+r.Intn(40), 1+r.Intn(10)
		all := make([]scored, n)
		var h []scored
		for i := range all {
			all[i] = scored{float32(r.Intn(20)), int32(i)} // many ties
			h = pushTopK(h, all[i], k)
		}
		sortHeap(h)
		sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
		if len(h) != min(k, n) {
			t.Fatalf("kept %d of %d, want %d", len(h), n, min(k, n))
		}
		for i := range h {
			if h[i].score != all[i].score {
				t.Fatalf("rank %d: score %g, want %g", i, h[i].score, all[i].score)
			}
		}
	}
}

func TestAppendProbMatchesIostream(t *testing.T) {
	for _, c := range []struct {
		p    float32
		want string
	}{
		{1.0000403, "1.00004"}, {0.99991, "0.99991"}, {0.5, "0.5"}, {1, "1"},
		{2.5e-05, "2.5e-05"}, {0.000123456, "0.000123456"}, {1.2345678e-7, "1.23457e-07"},
		{float32(math.NaN()), "nan"},
	} {
		if got := string(AppendProb(nil, c.p)); got != c.want {
			t.Errorf("AppendProb(%g) = %q, want %q", c.p, got, c.want)
		}
	}
}

func loadSynth(t *testing.T, s *synth) *Model {
	t.Helper()
	m, err := Parse("synth.bin", s.encode())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSoftmaxSumsToOne(t *testing.T) {
	for _, loss := range []int32{lossSoftmax, lossHS} {
		m := loadSynth(t, newSynth(3, loss, 12, 2, 2, 4))
		preds := m.Predict("kaloži 中文 unknownwörd", -1, 0)
		if len(preds) != 12 {
			t.Fatalf("loss %d: %d predictions for k=-1, want 12", loss, len(preds))
		}
		var sum float64
		for i, p := range preds {
			sum += float64(p.Prob) - 1e-5 // undo fastText's +1e-5
			if i > 0 && p.Prob > preds[i-1].Prob {
				t.Errorf("loss %d: not sorted at rank %d", loss, i)
			}
		}
		if math.Abs(sum-1) > 1e-4 {
			t.Errorf("loss %d: probabilities sum to %g", loss, sum)
		}
	}
}

func TestThresholdAndK(t *testing.T) {
	m := loadSynth(t, newSynth(4, lossSoftmax, 20, 1, 2, 4))
	all := m.Predict("mé ži ть", -1, 0)
	top := m.Predict("mé ži ть", 3, 0)
	if len(top) != 3 || top[0] != all[0] || top[2] != all[2] {
		t.Errorf("k=3 gave %v, want the first three of %v", top, all[:3])
	}
	th := all[1].Prob - 1e-5 // between rank 1 and rank 2 before +1e-5
	got := m.Predict("mé ži ть", -1, th)
	for _, p := range got {
		if p.Prob-1e-5 < th-1e-6 {
			t.Errorf("threshold %g let through %v", th, p)
		}
	}
	if len(got) == 0 || len(got) >= len(all) {
		t.Errorf("threshold %g kept %d of %d labels", th, len(got), len(all))
	}
}

func TestEOSAndEmptyLines(t *testing.T) {
	m := loadSynth(t, newSynth(5, lossSoftmax, 5, 1, 2, 4))
	a := m.PredictBytes([]byte("ka lo"), true, 1, 0)
	b := m.PredictBytes([]byte("ka lo"), false, 1, 0)
	if a[0].Prob == b[0].Prob {
		t.Errorf("the EOS token made no difference: %v vs %v", a, b)
	}
	if p := m.PredictBytes([]byte("  \t"), false, 1, 0); p != nil {
		t.Errorf("whitespace without newline gave %v, want no prediction", p)
	}
	if p := m.PredictBytes(nil, true, 1, 0); len(p) != 1 {
		t.Errorf("empty line (EOS only) gave %v, want one prediction", p)
	}
	if p := m.Predict("__label__x", 1, 0); len(p) != 1 {
		t.Errorf("label-only line gave %v, want the EOS prediction", p)
	}
	if got := m.Predict("ka\nlo", 1, 0); got[0] != m.Predict("ka lo", 1, 0)[0] {
		t.Errorf("embedded newline not treated as a space")
	}
}

func TestLoadErrors(t *testing.T) {
	good := newSynth(6, lossHS, 4, 2, 2, 3).encode()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a fastText model"},
		{"text", []byte("hello world, this is text\n"), "not a fastText model"},
		{"version", append(append([]byte{}, good[:4]...), append([]byte{99, 0, 0, 0}, good[8:]...)...), "version 99"},
	} {
		_, err := Parse(c.name, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: error %v, want one naming the file and containing %q", c.name, err, c.want)
		}
	}
	// Every truncation must give an error, never a panic or a model.
	for n := 0; n < len(good); n += 1 + n/50 {
		if _, err := Parse("cut.bin", good[:n]); err == nil {
			t.Fatalf("model truncated to %d of %d bytes loaded without error", n, len(good))
		} else if n > 8 && !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("truncated to %d bytes: error %q does not say truncated", n, err)
		}
	}
	if _, err := Parse("ok.bin", good); err != nil {
		t.Fatal(err)
	}
}

func TestStreamOrderAndLastLine(t *testing.T) {
	s := newSynth(7, lossSoftmax, 6, 2, 2, 4)
	m := loadSynth(t, s)
	in := randLines(8, s, 3000)
	var par, seq bytes.Buffer
	if err := Stream(m, bytes.NewReader(in), &par, StreamOptions{K: 2, Workers: 4, BatchLines: 7}); err != nil {
		t.Fatal(err)
	}
	// Sequential reference: fastText's line splitting by hand.
	lines := bytes.Split(in, []byte("\n"))
	for i, l := range lines {
		eol := i < len(lines)-1
		if !eol && len(l) == 0 {
			break
		}
		seq = *bytes.NewBuffer(AppendFastText(seq.Bytes(), m.PredictBytes(l, eol, 2, 0), true))
	}
	if !bytes.Equal(par.Bytes(), seq.Bytes()) {
		t.Fatalf("parallel stream output differs from sequential prediction")
	}
	if n := bytes.Count(par.Bytes(), []byte("\n")); n != 3001 {
		t.Errorf("%d output lines for 3000 terminated lines and one unterminated", n)
	}
}

func TestFallbackSaysSo(t *testing.T) {
	f := NewFallback()
	p := f.Predict("Das ist ein ganz normaler deutscher Satz über das Wetter.", 1, 0)
	if len(p) != 1 || p[0].Lang() != "de" {
		t.Errorf("fallback on German: %v", p)
	}
	if !strings.Contains(f.Name(), "NOT fastText") {
		t.Errorf("fallback name %q does not say it is not fastText", f.Name())
	}
	var _ Detector = f
	var _ Detector = (*Model)(nil)
}

func TestPruneTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	want := map[int32]int32{}
	p := newPruneTable(5000)
	for range 5000 {
		k, v := int32(r.Intn(20000)), int32(r.Intn(1<<30))
		want[k] = v // repeated keys: the last value wins, as in C++
		p.put(k, v)
	}
	for k := int32(0); k < 20000; k++ {
		v, ok := p.get(k)
		wv, wok := want[k]
		if ok != wok || v != wv {
			t.Fatalf("get(%d) = %d,%v; want %d,%v", k, v, ok, wv, wok)
		}
	}
	if p.n != len(want) {
		t.Errorf("table holds %d keys, want %d", p.n, len(want))
	}
}
