package analysis

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/strata-nmt/strata/data"
)

// Generator produces a model's output for an inference batch: for each row
// the generated token ids after the forced decoder prefix, without the
// final </s>.
type Generator func(ctx context.Context, b *data.InferenceBatch) ([][]int32, error)

// SystemTranslator turns a Generator into a Translator over raw text.
type SystemTranslator struct {
	Sys       *System
	Gen       Generator
	MaxTokens int       // source positions per batch (padding included)
	Log       io.Writer // per-batch progress (nil: none)
}

// Translate implements Translator.
func (t *SystemTranslator) Translate(ctx context.Context, src, tgt string, lines []string) ([]string, error) {
	ids, err := t.Generate(ctx, src, tgt, lines)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	for i, h := range ids {
		out[i] = t.Sys.Seq.Vocab.Decode(h)
	}
	return out, nil
}

// Generate returns the output ids of every line, in input order.
func (t *SystemTranslator) Generate(ctx context.Context, src, tgt string, lines []string) ([][]int32, error) {
	maxTok := t.MaxTokens
	if maxTok <= 0 {
		maxTok = 4096
	}
	batches, err := data.InferenceBatches(t.Sys.Seq, src, tgt, lines, maxTok, 0)
	if err != nil {
		return nil, err
	}
	out := make([][]int32, len(lines))
	start, done := time.Now(), 0
	for _, b := range batches {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hyps, err := t.Gen(ctx, b)
		if err != nil {
			return nil, err
		}
		if len(hyps) != b.B {
			return nil, fmt.Errorf("generator returned %d outputs for a batch of %d", len(hyps), b.B)
		}
		for r, h := range hyps {
			out[b.Index[r]] = h
		}
		done += b.B
		if t.Log != nil {
			el := time.Since(start)
			fmt.Fprintf(t.Log, "\r  %s-%s %d/%d lines, %.1f lines/s, ETA %s   ", src, tgt, done, len(lines),
				float64(done)/el.Seconds(), (time.Duration(float64(el) / float64(done) * float64(len(lines)-done))).Round(time.Second))
		}
	}
	if t.Log != nil && len(batches) > 0 {
		fmt.Fprintln(t.Log)
	}
	return out, nil
}
