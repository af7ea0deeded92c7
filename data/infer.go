package data

import (
	"cmp"
	"fmt"
	"slices"
)

// InferenceBatch is a batch of source sentences to translate.
type InferenceBatch struct {
	Batch
	// Prefix is the forced start of every decoder row (DecoderPrefix).
	Prefix []int32
}

// InferenceBatches encodes raw lines in srcLang for translation into
// tgtLang: the tag scheme is applied, sentences are sorted by length
// (longest first, so memory peaks in the first batch) and cut into batches
// of at most maxTokens source positions (padding included) and maxSentences
// sentences (0: no bound). Batch.Index holds each row's line index, so
// outputs[Index[r]] = translation of row r restores the input order. Only
// Src, S, B, SrcTokens, SrcLang, TgtLang and Index are set.
func InferenceBatches(seq Sequencer, srcLang, tgtLang string, lines []string, maxTokens, maxSentences int) ([]*InferenceBatch, error) {
	sl, ok1 := seq.Vocab.LangIndex(srcLang)
	tl, ok2 := seq.Vocab.LangIndex(tgtLang)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("languages %s-%s: want two of %v", srcLang, tgtLang, seq.Vocab.Languages())
	}
	st, tt, err := seq.tags(srcLang, tgtLang)
	if err != nil {
		return nil, err
	}
	prefix, err := seq.DecoderPrefix(tgtLang)
	if err != nil {
		return nil, err
	}
	pieces, _ := seq.Vocab.Model().EncodeLines(lines, 0, nil)
	off := int32(seq.Vocab.pieceOffset())
	enc := make([][]int32, len(lines))
	for i, p := range pieces {
		for k := range p {
			p[k] += off
		}
		enc[i] = seq.encoderInput(nil, p, st, tt)
		if len(enc[i]) > maxTokens {
			return nil, fmt.Errorf("line %d is %d tokens long, more than max tokens %d", i+1, len(enc[i]), maxTokens)
		}
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(enc[b]), len(enc[a])) })
	var out []*InferenceBatch
	for start := 0; start < len(order); {
		// Longest first: the first row sets S.
		s := len(enc[order[start]])
		n := max(1, maxTokens/max(s, 1))
		if maxSentences > 0 {
			n = min(n, maxSentences)
		}
		end := min(start+n, len(order))
		b := &InferenceBatch{Batch: Batch{B: end - start, S: s}, Prefix: prefix}
		b.Src = make([]int32, b.B*s)
		for r, i := range order[start:end] {
			copy(b.Src[r*s:], enc[i])
			b.SrcTokens += len(enc[i])
			b.Index = append(b.Index, i)
			b.SrcLang = append(b.SrcLang, sl)
			b.TgtLang = append(b.TgtLang, tl)
		}
		out = append(out, b)
		start = end
	}
	return out, nil
}
