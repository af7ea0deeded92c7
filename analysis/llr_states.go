package analysis

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// llrExample is one sentence of an LLR split: the encoder input the model
// read and the decoder input that reproduces its own output.
type llrExample struct {
	src      []int32 // encoder input (tags and </s> included, no padding)
	dec      []int32 // forced prefix + generated tokens
	prefix   int     // length of the forced prefix
	srcLang  int32   // index in Vocab.Languages()
	tgtLang  int32
	dir      int // index of the direction in its split
	line     int // the test line it translates
	srcTagAt int // position of a language tag in src, -1 if none
}

// collectExamples decodes every line of every direction with gen and
// returns the examples; the decoder input is the prefix followed by the
// model's own output, so a teacher-forced pass over it reproduces the
// states of autoregressive generation (the decoder is causal).
func collectExamples(ctx context.Context, sys *decode.Bundle, gen Generator, set *TestSet, dirs []Direction, maxTokens int, log io.Writer) ([]llrExample, error) {
	seq := sys.Seq
	var out []llrExample
	for di, d := range dirs {
		t0 := time.Now()
		lines := set.Lines[d.Src]
		if lines == nil {
			return nil, fmt.Errorf("%s has no %s file for direction %s", set.Dir, d.Src, d)
		}
		batches, err := data.InferenceBatches(seq, d.Src, d.Tgt, lines, maxTokens, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		sl, _ := seq.Vocab.LangIndex(d.Src)
		tl, _ := seq.Vocab.LangIndex(d.Tgt)
		tagAt := -1
		if seq.Scheme != data.TagNone {
			tagAt = 0
		}
		for _, b := range batches {
			hyps, err := gen(ctx, b)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d, err)
			}
			for r, h := range hyps {
				src := trimPad(b.Src[r*b.S : (r+1)*b.S])
				dec := append(append([]int32(nil), b.Prefix...), h...)
				out = append(out, llrExample{src: src, dec: dec, prefix: len(b.Prefix),
					srcLang: int32(sl), tgtLang: int32(tl), dir: di, line: b.Index[r], srcTagAt: tagAt})
			}
		}
		if log != nil {
			fmt.Fprintf(log, "  decoded %s (%d lines) in %s\n", d, len(lines), time.Since(t0).Round(time.Second/10))
		}
	}
	return out, nil
}

// layerStates holds one batch's hidden states and which of their rows the
// probes read.
type layerStates struct {
	enc, dec         []*engine.Tensor // per layer: B·S×D and B·T×D
	encRows, decRows []int            // selected rows
	encEx, decEx     []int            // the example of each selected row
}

// tokenRule says which positions count as tokens for the probes.
type tokenRule struct{ includeTags bool }

// encPositions: every non-pad source position except the language tag
// (unless includeTags); the final </s> counts.
func (t tokenRule) encPositions(e llrExample) (lo, hi int) {
	if e.srcTagAt == 0 && !t.includeTags {
		return 1, len(e.src)
	}
	return 0, len(e.src)
}

// decPositions: the decoder inputs that are generated tokens, i.e. not the
// forced prefix (</s>, and <2t> with S-ENC-T-DEC), unless includeTags.
func (t tokenRule) decPositions(e llrExample) (lo, hi int) {
	if t.includeTags {
		return 0, len(e.dec)
	}
	return e.prefix, len(e.dec)
}

// statesOf runs the model over examples idx and returns the states of
// every encoder and decoder layer. The tensors live in g until g.Reset.
func statesOf(g *engine.Graph, m model.Model, ex []llrExample, idx []int, rule tokenRule) *layerStates {
	b := len(idx)
	s, t := 0, 0
	for _, i := range idx {
		s, t = max(s, len(ex[i].src)), max(t, len(ex[i].dec))
	}
	src := make([]int32, b*s)
	dec := make([]int32, b*t)
	ls := &layerStates{}
	for r, i := range idx {
		e := ex[i]
		copy(src[r*s:], e.src)
		copy(dec[r*t:], e.dec)
		lo, hi := rule.encPositions(e)
		for p := lo; p < hi; p++ {
			ls.encRows, ls.encEx = append(ls.encRows, r*s+p), append(ls.encEx, i)
		}
		lo, hi = rule.decPositions(e)
		for p := lo; p < hi; p++ {
			ls.decRows, ls.decEx = append(ls.decRows, r*t+p), append(ls.decEx, i)
		}
	}
	enc := m.Encode(g, src, b, s, model.Collect{States: true})
	out := m.Decode(g, enc, dec, t, model.Collect{States: true})
	ls.enc, ls.dec = enc.States, out.States
	return ls
}

// probeInputs builds the inputs of the probe bank: probe 2l predicts the
// source language from layer l, probe 2l+1 the target language; layers
// are the encoder's then the decoder's.
func (ls *layerStates) probeInputs(ex []llrExample) []ProbeInput {
	var in []ProbeInput
	add := func(x *engine.Tensor, rows, exOf []int) {
		srcL, tgtL := make([]int32, len(rows)), make([]int32, len(rows))
		for k, i := range exOf {
			srcL[k], tgtL[k] = ex[i].srcLang, ex[i].tgtLang
		}
		in = append(in, ProbeInput{X: x, Rows: rows, Labels: srcL}, ProbeInput{X: x, Rows: rows, Labels: tgtL})
	}
	for _, x := range ls.enc {
		add(x, ls.encRows, ls.encEx)
	}
	for _, x := range ls.dec {
		add(x, ls.decRows, ls.decEx)
	}
	return in
}
