package data

import (
	"path/filepath"
	"slices"
	"testing"
)

func openSmall(t testing.TB) *Dataset {
	t.Helper()
	dir := t.TempDir()
	cfg := smallCorpus(t, dir)
	out := filepath.Join(dir, "out")
	if _, err := Prepare(cfg, out, PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	ds, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func epochBatches(t *testing.T, b *Batcher) []*Batch {
	var out []*Batch
	for {
		bt, ok := b.Next()
		if !ok {
			return out
		}
		out = append(out, bt)
	}
}

func TestBatcherEpoch(t *testing.T) {
	ds := openSmall(t)
	train := ds.Splits["train"]
	seq := ds.Sequencer()
	b, err := NewBatcher(train, seq, BatcherOptions{MaxTokens: 120, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	batches := epochBatches(t, b)
	if b.Position() != (Position{2, 0}) {
		t.Fatalf("after epoch 1: position %+v", b.Position())
	}
	seen := make([]int, train.Len())
	for _, bt := range batches {
		if bt.B*max(bt.S, bt.T) > 120 {
			t.Fatalf("batch %d×max(%d,%d) over 120 tokens", bt.B, bt.S, bt.T)
		}
		nt := 0
		for r, i := range bt.Index {
			seen[i]++
			part, j := train.Locate(i)
			src, tgt := part.Pair(j)
			enc, _ := seq.EncoderInput(nil, src, part.SrcLang, part.TgtLang)
			in, out, _ := seq.Decoder(nil, nil, tgt, part.TgtLang)
			row := bt.Src[r*bt.S : (r+1)*bt.S]
			if !slices.Equal(row[:len(enc)], enc) || slices.ContainsFunc(row[len(enc):], func(x int32) bool { return x != PadID }) {
				t.Fatalf("src row %d: %v, want %v + padding", r, row, enc)
			}
			if !slices.Equal(bt.TgtIn[r*bt.T:r*bt.T+len(in)], in) || !slices.Equal(bt.TgtOut[r*bt.T:r*bt.T+len(out)], out) {
				t.Fatalf("tgt row %d", r)
			}
			for _, id := range out {
				if id != PadID {
					nt++
				}
			}
			if bt.SrcLang[r] != part.SrcLangID || bt.TgtLang[r] != part.TgtLangID {
				t.Fatalf("languages of row %d", r)
			}
		}
		if nt != bt.NTokens {
			t.Fatalf("NTokens %d, want %d", bt.NTokens, nt)
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("example %d seen %d times in an epoch at T=1", i, n)
		}
	}
	// The same seed gives the same epoch; the next epoch differs.
	b2, err := ds.NewBatcher("train", BatcherOptions{MaxTokens: 120, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds.NewBatcher("nope", BatcherOptions{MaxTokens: 120}); err == nil {
		t.Fatal("unknown split accepted")
	}
	if !slices.EqualFunc(batches, epochBatches(t, b2), func(x, y *Batch) bool { return slices.Equal(x.Index, y.Index) }) {
		t.Fatal("same seed, different epoch")
	}
	e2 := epochBatches(t, b2)
	if slices.EqualFunc(batches, e2, func(x, y *Batch) bool { return slices.Equal(x.Index, y.Index) }) {
		t.Fatal("epoch 2 repeats epoch 1")
	}
}

// MaxSentences caps a batch's sentences below what MaxTokens allows, and
// the epoch still covers every example once.
func TestBatcherMaxSentences(t *testing.T) {
	ds := openSmall(t)
	train := ds.Splits["train"]
	b, err := NewBatcher(train, ds.Sequencer(), BatcherOptions{MaxTokens: 1 << 16, MaxSentences: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	seen, full := 0, 0
	for _, bt := range epochBatches(t, b) {
		if bt.B > 3 {
			t.Fatalf("a batch of %d sentences with MaxSentences 3", bt.B)
		}
		if bt.B == 3 {
			full++
		}
		seen += bt.B
	}
	if seen != train.Len() || full == 0 {
		t.Fatalf("%d examples in the epoch (want %d), %d batches of 3", seen, train.Len(), full)
	}
}

func TestBatcherResume(t *testing.T) {
	ds := openSmall(t)
	opt := BatcherOptions{MaxTokens: 100, Seed: 3}
	a, _ := NewBatcher(ds.Splits["train"], ds.Sequencer(), opt)
	epochBatches(t, a)
	for range 5 {
		a.Next()
	}
	saved := a.Position()
	var want [][]int
	for range 12 {
		bt, ok := a.Next()
		if !ok {
			bt, _ = a.Next()
		}
		want = append(want, bt.Index)
	}
	b, _ := NewBatcher(ds.Splits["train"], ds.Sequencer(), opt)
	if err := b.Seek(saved); err != nil {
		t.Fatal(err)
	}
	for k := range 12 {
		bt, ok := b.Next()
		if !ok {
			bt, _ = b.Next()
		}
		if !slices.Equal(bt.Index, want[k]) {
			t.Fatalf("resumed batch %d differs", k)
		}
	}
	if err := b.Seek(Position{1, 1 << 20}); err == nil {
		t.Fatal("seek past the epoch accepted")
	}
}

func TestBatcherTemperature(t *testing.T) {
	ds := openSmall(t)
	train := ds.Splits["train"] // parts of 300, 300, 120, 120 examples
	b, err := NewBatcher(train, ds.Sequencer(), BatcherOptions{MaxTokens: 200, Seed: 1, Temperature: 5})
	if err != nil {
		t.Fatal(err)
	}
	q := b.Quotas()
	// p ∝ n^(1/5): 300^0.2 = 3.129, 120^0.2 = 2.605; N = 840.
	want := []int{229, 229, 191, 191}
	if !slices.Equal(q, want) {
		t.Fatalf("quotas %v, want %v", q, want)
	}
	counts := make([]int, len(train.Parts))
	dup := map[int]int{}
	for _, bt := range epochBatches(t, b) {
		for _, i := range bt.Index {
			p, _ := train.Locate(i)
			counts[slices.Index(train.Parts, p)]++
			dup[i]++
		}
	}
	if !slices.Equal(counts, want) {
		t.Fatalf("epoch drew %v, want %v", counts, want)
	}
	// The large parts are down-sampled without replacement.
	for i, n := range dup {
		if p, _ := train.Locate(i); p.Len() == 300 && n > 1 {
			t.Fatalf("example %d of a down-sampled part drawn %d times", i, n)
		}
	}
	if _, err := NewBatcher(train, ds.Sequencer(), BatcherOptions{MaxTokens: 200, Temperature: 0.5}); err == nil {
		t.Fatal("temperature below 1 accepted")
	}
	if _, err := NewBatcher(train, ds.Sequencer(), BatcherOptions{MaxTokens: 5}); err == nil {
		t.Fatal("max tokens below the longest sentence accepted")
	}
}

func TestBatcherPaddingAndFixed(t *testing.T) {
	ds := openSmall(t)
	b, _ := NewBatcher(ds.Splits["train"], ds.Sequencer(), BatcherOptions{MaxTokens: 200, Seed: 1})
	st := b.EpochStats(1)
	// Batches cut from an unsorted order, for comparison.
	random := b.cut(b.sample(nil))
	var slots, real int
	for _, batch := range random {
		var s int32
		for _, i := range batch {
			s = max(s, b.srcLen[i])
			real += int(b.srcLen[i])
		}
		slots += int(s) * len(batch)
	}
	randomPad := 1 - float64(real)/float64(slots)
	// The toy corpus has few lengths and sides of very different length,
	// so the gain is smaller than on real data (docs/performance.md).
	if st.Sentences != ds.Splits["train"].Len() || st.SrcPadding > 0.7*randomPad {
		t.Fatalf("length grouping: padding %.3f, unsorted %.3f", st.SrcPadding, randomPad)
	}
	f, _ := NewBatcher(ds.Splits["valid"], ds.Sequencer(), BatcherOptions{MaxTokens: 200, Fixed: true})
	if !slices.EqualFunc(f.Plan(1), f.Plan(2), func(x, y []int) bool { return slices.Equal(x, y) }) {
		t.Fatal("fixed batcher changes between epochs")
	}
}

func TestInferenceBatches(t *testing.T) {
	ds := openSmall(t)
	lines := []string{"open", "save the new folder window file", "", "close the window"}
	seq := ds.Sequencer()
	bs, err := InferenceBatches(seq, "en", "fr", lines, 20, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(lines))
	prev := 1 << 30
	for _, b := range bs {
		if b.B > 2 || b.B*b.S > 20 {
			t.Fatalf("batch %d×%d", b.B, b.S)
		}
		if tag, _ := ds.Vocab.TagID("fr"); !slices.Equal(b.Prefix, []int32{DecoderStart, tag}) {
			t.Fatalf("prefix %v", b.Prefix)
		}
		for r, i := range b.Index {
			row := b.Src[r*b.S : (r+1)*b.S]
			n := len(row)
			for n > 0 && row[n-1] == PadID {
				n--
			}
			if n > prev {
				t.Fatal("not sorted longest first")
			}
			prev = n
			if tag, _ := ds.Vocab.TagID("en"); row[0] != tag || row[n-1] != EOSID {
				t.Fatalf("row %v lacks <2en> ... </s>", row)
			}
			got[i] = ds.Vocab.Decode(row)
		}
	}
	if !slices.Equal(got, lines) {
		t.Fatalf("restored %q", got)
	}
	if _, err := InferenceBatches(seq, "en", "ru", lines, 20, 0); err == nil {
		t.Fatal("unknown language accepted")
	}
}
