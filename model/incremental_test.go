package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

func incrementalModel(t *testing.T, norm Norm) *Transformer {
	t.Helper()
	cfg := tinyConfig(norm)
	cfg.DModel, cfg.FFN, cfg.Heads = 16, 32, 4
	cfg.SrcVocab, cfg.TgtVocab = 30, 30
	m, err := New(cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*Transformer)
}

// fullLogits decodes tgt (one row per sentence, all of length T) by full
// recomputation and returns the logits, B·T × V.
func fullLogits(m *Transformer, src []int32, b, s int, tgt []int32, tl int) []float32 {
	g := engine.NewInference()
	enc := m.Encode(g, src, b, s, Collect{})
	return append([]float32(nil), m.Decode(g, enc, tgt, tl, Collect{}).Logits.Data...)
}

func assertClose(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-4 {
			t.Fatalf("%s: value %d is %v, full recomputation gives %v", what, i, got[i], want[i])
		}
	}
}

// Step by step decoding with the cache must give the logits of the full
// teacher-forced decoder at every position, for every norm placement, with
// a padded source.
func TestIncrementalMatchesFullDecode(t *testing.T) {
	src := []int32{4, 5, 6, 7, 2, 8, 9, 2, 0, 0}
	tgt := []int32{2, 11, 12, 13, 14, 2, 15, 16, 17, 18}
	const b, s, tl = 2, 5, 5
	for _, norm := range []Norm{NormPost, NormPre, NormSwapPre} {
		m := incrementalModel(t, norm)
		want := fullLogits(m, src, b, s, tgt, tl)
		v := m.cfg.TgtVocab
		encG, g := engine.NewInference(), engine.NewInference()
		st := m.StartDecoding(encG, m.Encode(encG, src, b, s, Collect{}), b, tl, nil)
		encG.Reset() // the state must own what it needs
		for step := 0; step < tl; step++ {
			logits := m.Step(g, st, []int32{tgt[step], tgt[tl+step]})
			for i := 0; i < b; i++ {
				w := want[(i*tl+step)*v : (i*tl+step+1)*v]
				assertClose(t, fmt.Sprintf("%s step %d row %d", norm, step, i), logits.Data[i*v:(i+1)*v], w)
			}
			g.Reset()
		}
	}
}

// After Reorder, a row continues the history of the row it was copied
// from: branch sentence 1 into two rows, drop sentence 0, and compare with
// full decoding of the two resulting sequences.
func TestIncrementalReorder(t *testing.T) {
	m := incrementalModel(t, NormPre)
	src := []int32{4, 5, 6, 7, 2, 8, 9, 2, 0, 0}
	const b, s = 2, 5
	g := engine.NewInference()
	st := m.StartDecoding(g, m.Encode(g, src, b, s, Collect{}), 4, 4, nil)
	g.Reset()
	m.Step(g, st, []int32{2, 2})
	m.Step(g, st, []int32{11, 12})
	st.Reorder([]int{1, 1, 0})
	if st.Rows() != 3 || st.Sentence(0) != 1 || st.Sentence(2) != 0 || st.Len() != 2 {
		t.Fatalf("after reorder: rows %d, sentences %d %d, len %d", st.Rows(), st.Sentence(0), st.Sentence(2), st.Len())
	}
	m.Step(g, st, []int32{20, 21, 22})
	logits := m.Step(g, st, []int32{23, 24, 25})
	v := m.cfg.TgtVocab
	cases := []struct {
		row  int
		src  []int32
		tgt  []int32
		slen int
	}{
		{0, []int32{8, 9, 2}, []int32{2, 12, 20, 23}, 3},
		{1, []int32{8, 9, 2}, []int32{2, 12, 21, 24}, 3},
		{2, []int32{4, 5, 6, 7, 2}, []int32{2, 11, 22, 25}, 5},
	}
	for _, c := range cases {
		want := fullLogits(m, c.src, 1, c.slen, c.tgt, 4)
		assertClose(t, fmt.Sprintf("row %d", c.row), logits.Data[c.row*v:(c.row+1)*v], want[3*v:4*v])
	}
}

// A recycled state must not leak the previous batch into the next.
func TestIncrementalReuse(t *testing.T) {
	m := incrementalModel(t, NormPost)
	g := engine.NewInference()
	first := m.StartDecoding(g, m.Encode(g, []int32{4, 5, 6, 2}, 1, 4, Collect{}), 2, 3, nil)
	m.Step(g, first, []int32{2})
	m.Step(g, first, []int32{9})
	src := []int32{7, 8, 2}
	st := m.StartDecoding(g, m.Encode(g, src, 1, 3, Collect{}), 2, 3, first)
	m.Step(g, st, []int32{2})
	logits := m.Step(g, st, []int32{13})
	want := fullLogits(m, src, 1, 3, []int32{2, 13}, 2)
	v := m.cfg.TgtVocab
	assertClose(t, "reused state", logits.Data, want[v:2*v])
}

// A state recycled from a batch of many rows and long outputs gives its
// caches back when the next batch needs far less, instead of pinning them.
func TestIncrementalReuseTrims(t *testing.T) {
	m := incrementalModel(t, NormPre)
	g := engine.NewInference()
	big := m.StartDecoding(g, m.Encode(g, []int32{4, 5, 6, 7, 8, 9, 2}, 1, 7, Collect{}), 64, 200, nil)
	for i := 0; i < 150; i++ {
		m.Step(g, big, make([]int32, big.Rows()))
		if i == 0 {
			big.Reorder(make([]int, 64))
		}
		g.Reset()
	}
	bigRows := big.(*transformerState).cache.rows()
	st := m.StartDecoding(g, m.Encode(g, []int32{7, 2}, 1, 2, Collect{}), 1, 4, big).(*transformerState)
	m.Step(g, st, []int32{2})
	if r := st.cache.rows(); r > 4*4+1024 || r >= bigRows {
		t.Errorf("cache holds %d rows a layer for a batch needing 4 (%d after the large batch)", r, bigRows)
	}
}
