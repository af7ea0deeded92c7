package decode

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/subword"
)

var corpus = []string{
	"the cat sat on the mat", "der Hund lief in den Park", "le chat est sur le tapis",
	"a dog and a cat", "ein Hund und eine Katze", "un chien et un chat",
}

// testBundle is a random model over a small learned vocabulary with the
// given tag scheme and languages de, en, fr.
func testBundle(t *testing.T, scheme data.TagScheme) *Bundle {
	t.Helper()
	wc := subword.NewWordCounts()
	wc.AddLines(corpus, 1)
	sw, _, err := subword.Learn(wc, subword.Options{NumMerges: 20})
	if err != nil {
		t.Fatal(err)
	}
	v, err := data.NewVocab(sw, []string{"de", "en", "fr"}, data.TagAngle)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := model.Preset("tiny")
	cfg.EncoderLayers, cfg.DecoderLayers, cfg.DModel, cfg.FFN, cfg.Heads = 2, 2, 16, 32, 4
	cfg.SrcVocab, cfg.TgtVocab = v.Size(), v.Size()
	m, err := model.New(cfg, 21)
	if err != nil {
		t.Fatal(err)
	}
	eosBias(m, 2)
	return &Bundle{Model: m, Vocab: v, Seq: data.Sequencer{Scheme: scheme, Vocab: v}}
}

func testTranslator(t *testing.T, b *Bundle, o Options) *Translator {
	t.Helper()
	s, err := NewSearcher(b.Model, o)
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTranslator(b, s)
	tr.BatchSize = 3
	return tr
}

func TestStreamKeepsOrderAndEmptyLines(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := testOptions(3)
	o.NBest = 1
	input := []string{"the cat", "", "a dog and a cat sat on the mat", "   ", "le chat", "der Hund lief", "un chien"}
	var out bytes.Buffer
	tr := testTranslator(t, b, o)
	if err := tr.Stream(strings.NewReader(strings.Join(input, "\n")+"\n"), &out, StreamOptions{Src: "en", Tgt: "de", Buffer: 4}); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != len(input) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(got), len(input), out.String())
	}
	// Each line alone must give the same output: order restored, batch
	// composition irrelevant.
	for i, l := range input {
		one := testTranslator(t, b, o)
		res, err := one.Lines([]string{l}, "en", "de", "")
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != res[0].Best() {
			t.Fatalf("line %d: stream gave %q, alone %q", i+1, got[i], res[0].Best())
		}
		if strings.TrimSpace(l) == "" && got[i] != "" {
			t.Fatalf("line %d is empty but translated to %q", i+1, got[i])
		}
	}
	if tr.Stats.Lines != len(input) || tr.Stats.Sentences != 5 || tr.Stats.Tokens == 0 {
		t.Fatalf("stats %+v", tr.Stats)
	}
}

// The forced prefix carries the target tag under S-ENC-T-DEC; under T-ENC
// the tag leads the encoder input and the decoder starts bare.
func TestTagSchemes(t *testing.T) {
	for _, scheme := range []data.TagScheme{data.TagSENCTDEC, data.TagTENC} {
		b := testBundle(t, scheme)
		o := testOptions(2)
		tr := testTranslator(t, b, o)
		res, err := tr.Lines([]string{"the cat"}, "en", "fr", "")
		if err != nil {
			t.Fatal(err)
		}
		pieces := b.Vocab.NewEncoder().Encode(nil, "the cat")
		en, _ := b.Vocab.TagID("en")
		fr, _ := b.Vocab.TagID("fr")
		src := append(append([]int32{fr}, pieces...), data.EOSID)
		prefix := []int32{data.DecoderStart}
		if scheme == data.TagSENCTDEC {
			src[0] = en
			prefix = append(prefix, fr)
		}
		want := search(t, b.Model, o, [][]int32{src}, prefix)
		sameHyps(t, string(scheme), res[0].Hyps, want[0])
	}
}

func TestPivot(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := testOptions(2)
	lines := []string{"der Hund", "ein Hund und eine Katze"}
	direct := testTranslator(t, b, o)
	mid, err := direct.Lines(lines, "de", "en", "")
	if err != nil {
		t.Fatal(err)
	}
	var midText []string
	for _, r := range mid {
		midText = append(midText, r.Best())
	}
	want, err := direct.Lines(midText, "en", "fr", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := testTranslator(t, b, o).Lines(lines, "de", "fr", "en")
	if err != nil {
		t.Fatal(err)
	}
	for i := range lines {
		if got[i].Best() != want[i].Best() {
			t.Fatalf("line %d: pivot gave %q, two legs %q", i, got[i].Best(), want[i].Best())
		}
	}
}

func TestNBestOutputFormat(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := testOptions(3)
	var out bytes.Buffer
	tr := testTranslator(t, b, o)
	if err := tr.Stream(strings.NewReader("the cat\n\nle chat"), &out, StreamOptions{Src: "en", Tgt: "de"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3+1+3 {
		t.Fatalf("want 3+1+3 n-best lines, got:\n%s", out.String())
	}
	var nums []string
	for _, l := range lines {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			t.Fatalf("line %q is not LINE<TAB>SCORE<TAB>TEXT", l)
		}
		nums = append(nums, f[0])
	}
	if !slices.Equal(nums, []string{"1", "1", "1", "2", "3", "3", "3"}) {
		t.Fatalf("line numbers %v", nums)
	}
}

func TestLanguageErrors(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	tr := testTranslator(t, b, testOptions(2))
	for _, c := range []struct{ src, tgt, want string }{
		{"en", "xx", `"xx" is not one of`},
		{"en", "", "needs a target language"},
		{"", "de", "needs a source language"},
	} {
		_, err := tr.Lines([]string{"a"}, c.src, c.tgt, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s-%s: error %v, want one containing %q", c.src, c.tgt, err, c.want)
		}
	}
}

func TestAttentionMap(t *testing.T) {
	m := tinyModel(t, model.NormPre, 31)
	src := []int32{5, 6, 7, data.EOSID}
	tgt := []int32{8, 9, data.EOSID}
	for _, kind := range []string{AttnEncoder, AttnDecoder, AttnCross} {
		a, err := Attention(m, src, startPrefix, tgt, kind, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range a.Mean() {
			var s float32
			for _, w := range row {
				s += w
			}
			if s < 0.999 || s > 1.001 {
				t.Fatalf("%s: a row of weights sums to %v", kind, s)
			}
		}
		if kind == AttnCross && (len(a.Queries) != 3 || len(a.Keys) != 4) {
			t.Fatalf("cross attention is %d×%d, want 3×4", len(a.Queries), len(a.Keys))
		}
	}
	if _, err := Attention(m, src, startPrefix, tgt, AttnCross, 2); err == nil {
		t.Fatal("layer 2 of a 2-layer decoder was accepted")
	}
}

func TestOutputLineIsOneValidLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":         "plain text",
		"a\nb\r\nc":          "a b  c",
		"bad \xff\xfe bytes": "bad \uFFFD bytes",
		"sep\u2028x":         "sep x",
	} {
		if got := OutputLine(in); got != want {
			t.Errorf("OutputLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// MaxRows and MaxStateTokens split a batch by decoder rows (sentences ×
// beam) and rows × output positions, the decoder caches' size.
func TestBatchEndBoundsDecoderState(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := testOptions(4)
	o.MaxLenA, o.MaxLenB = 1, 5
	tr := testTranslator(t, b, o)
	ids := make([][]int32, 40)
	order := make([]int, 40)
	for i := range ids {
		ids[i], order[i] = make([]int32, 11), i // max_len 16 each
	}
	for _, c := range []struct{ rows, state, want int }{
		{0, 0, 40}, {64, 0, 16}, {3, 0, 1}, {0, 4 * 17 * 10, 10}, {64, 4 * 17 * 10, 10}, {0, 1, 1},
	} {
		tr.BatchSize, tr.MaxRows, tr.MaxStateTokens = 64, c.rows, c.state
		if got := tr.batchEnd(order, ids, 0); got != c.want {
			t.Errorf("MaxRows %d, MaxStateTokens %d: batch of %d sentences, want %d", c.rows, c.state, got, c.want)
		}
	}
}

func TestStreamRefusesInvalidUTF8(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	tr := testTranslator(t, b, testOptions(2))
	var out bytes.Buffer
	err := tr.Stream(strings.NewReader("the cat\nbad \xff byte\n"), &out, StreamOptions{Src: "en", Tgt: "de", Name: "in.en", Buffer: 1, FirstLine: 10})
	if err == nil || !strings.Contains(err.Error(), "in.en:12: invalid UTF-8 at byte 5") {
		t.Fatalf("err = %v, want in.en:12: invalid UTF-8 at byte 5", err)
	}
}
