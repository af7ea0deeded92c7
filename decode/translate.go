package decode

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/strata-nmt/strata/data"
)

// Translator translates text with a model bundle: it encodes lines under
// the data's tag scheme, sorts them by length into batches, searches, and
// returns results in input order.
type Translator struct {
	B *Bundle
	S *Searcher
	// BatchSize bounds the sentences per batch.
	BatchSize int
	// MaxTokens bounds a batch's padded source tokens (0: no bound).
	MaxTokens int
	// MaxRows bounds a batch's decoder rows, sentences × beam (0: no
	// bound): the decoder caches grow with rows × output length, so
	// without it a beam of 16 holds 16 times the memory of greedy search.
	MaxRows int
	// MaxStateTokens bounds a batch's decoder rows × output positions
	// (0: no bound), the size of the decoder's key/value caches: a batch of
	// long sentences then has fewer of them, so memory does not depend on
	// the lengths that come.
	MaxStateTokens int
	// MaxSrcLen truncates longer encoder inputs (tag and EOS kept), so one
	// runaway line cannot exhaust memory; a warning names the line. 0, or
	// a value above HardMaxSrcLen, is HardMaxSrcLen: no setting removes
	// the bound.
	MaxSrcLen int
	// Align adds word alignments to every hypothesis (AlignWords, through
	// decoder layer AlignLayer; an ensemble aligns with its first model).
	Align      bool
	AlignLayer int
	// Warn receives warnings (nil: discard).
	Warn io.Writer
	// Stats accumulate over calls.
	Stats Stats
	// Pool, when not nil, decodes the batches of a call in parallel (its
	// first searcher is S; SetWorkers makes it).
	Pool *Pool
}

// SetWorkers makes the translator decode up to workers batches at once,
// sharing threads kernel threads (0: GOMAXPROCS) among them (see Pool);
// workers ≤ 1 decodes one batch at a time with S alone.
func (t *Translator) SetWorkers(workers, threads int) error {
	if workers <= 1 {
		t.Pool = nil
		return nil
	}
	p, err := NewPool(t.S, workers, threads, func() (*Searcher, error) { return t.B.Searcher(t.S.Options()) })
	if err != nil {
		return err
	}
	t.Pool = p
	return nil
}

// Stats count what was translated.
type Stats struct {
	Lines, Sentences int // all lines; non-empty ones decoded
	SrcTokens        int // encoder inputs, tags and EOS included
	Tokens           int // generated tokens of the best hypotheses, EOS included
}

// HardMaxSrcLen bounds every encoder input (tags and EOS included),
// whatever Translator.MaxSrcLen says. Memory per line grows with the
// source length (the encoder's attention, and the decoder's caches over
// outputs up to a·src_len + b tokens): without a bound, one line of
// 100,000 characters took 7-9 GB. Longer inputs are truncated with a
// warning.
const HardMaxSrcLen = 4096

// SrcLimit is the longest encoder input t decodes: MaxSrcLen, within
// HardMaxSrcLen.
func (t *Translator) SrcLimit() int {
	if t.MaxSrcLen > 0 && t.MaxSrcLen < HardMaxSrcLen {
		return t.MaxSrcLen
	}
	return HardMaxSrcLen
}

// truncateSource keeps the first n-1 tokens of an encoder input and its EOS.
func truncateSource(x []int32, n int) []int32 {
	return append(x[:n-1:n-1], data.EOSID)
}

// NewTranslator returns a translator with fairseq-like batch defaults.
func NewTranslator(b *Bundle, s *Searcher) *Translator {
	return &Translator{B: b, S: s, BatchSize: 64, MaxTokens: 12000, MaxSrcLen: 1024}
}

// Result is the translation of one line.
type Result struct {
	Hyps  []Hypothesis // best first; none for an empty line
	Texts []string     // detokenised Hyps
	// Links are the word alignments of Hyps, when the Translator aligns.
	Links [][]Link
}

// Best is the best translation ("" for an empty line).
func (r Result) Best() string {
	if len(r.Texts) == 0 {
		return ""
	}
	return r.Texts[0]
}

// Lines translates lines from src into tgt, through pivot when it is not
// empty (src→pivot with the best hypothesis, then pivot→tgt; the scores
// are those of the last leg). Empty (or all-blank) lines stay empty.
func (t *Translator) Lines(lines []string, src, tgt, pivot string) ([]Result, error) {
	var res []Result
	var err error
	if pivot != "" && t.Align {
		return nil, fmt.Errorf("word alignment of pivoted translations is not supported: the last leg's source is the pivot text, not the input")
	}
	if pivot != "" {
		var mid []Result
		if mid, err = t.leg(lines, src, pivot, "pivot leg "+src+"-"+pivot+": "); err != nil {
			return nil, err
		}
		texts := make([]string, len(mid))
		for i, r := range mid {
			texts[i] = r.Best()
		}
		res, err = t.leg(texts, pivot, tgt, "pivot leg "+pivot+"-"+tgt+": ")
	} else {
		res, err = t.leg(lines, src, tgt, "")
	}
	if err != nil {
		return nil, err
	}
	t.Stats.Lines += len(lines)
	for _, r := range res {
		if len(r.Hyps) > 0 {
			t.Stats.Sentences++
		}
	}
	return res, nil
}

// Translate implements analysis.Translator: best translations only.
func (t *Translator) Translate(ctx context.Context, src, tgt string, lines []string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := t.Lines(lines, src, tgt, "")
	if err != nil {
		return nil, err
	}
	out := make([]string, len(res))
	for i, r := range res {
		out[i] = r.Best()
	}
	return out, nil
}

// checkLang accepts "" (a scheme without tags needs none) or a language
// with a tag in the vocabulary.
func (t *Translator) checkLang(role, lang string) error {
	if lang == "" {
		if t.B.Seq.Scheme != data.TagNone && role == "target" {
			return fmt.Errorf("the model's tag scheme %s needs a target language (--tgt-lang)", t.B.Seq.Scheme)
		}
		if t.B.Seq.Scheme == data.TagSENCTDEC {
			return fmt.Errorf("the model's tag scheme %s needs a source language (--src-lang)", t.B.Seq.Scheme)
		}
		return nil
	}
	if _, ok := t.B.Vocab.LangIndex(lang); !ok {
		return fmt.Errorf("%s language %q is not one of the model's languages %v", role, lang, t.B.Vocab.Languages())
	}
	return nil
}

// directionPrefix checks a direction's languages and returns the decoder's
// forced prefix for it.
func (t *Translator) directionPrefix(src, tgt string) ([]int32, error) {
	if err := t.checkLang("source", src); err != nil {
		return nil, err
	}
	if err := t.checkLang("target", tgt); err != nil {
		return nil, err
	}
	return t.B.Seq.DecoderPrefix(tgt)
}

// translationPrefix is directionPrefix for a direction the model was
// trained to translate (Bundle.Directions): seen in training, or zero-shot.
func (t *Translator) translationPrefix(src, tgt string) ([]int32, error) {
	prefix, err := t.directionPrefix(src, tgt)
	if err != nil {
		return nil, err
	}
	if err := t.B.Directions.Check(src, tgt); err != nil {
		return nil, err
	}
	return prefix, nil
}

func (t *Translator) leg(lines []string, src, tgt, what string) ([]Result, error) {
	prefix, err := t.translationPrefix(src, tgt)
	if err != nil {
		return nil, fmt.Errorf("%s%w", what, err)
	}
	ids, order, err := t.encodeLines(lines, src, tgt, what)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(lines))
	if t.Align {
		for i := range out {
			out[i].Links = [][]Link{} // empty lines too print " ||| "
		}
	}
	var bounds [][2]int
	for start := 0; start < len(order); {
		end := t.batchEnd(order, ids, start)
		bounds = append(bounds, [2]int{start, end})
		start = end
	}
	batch := func(b int) [][]int32 {
		srcs := make([][]int32, 0, bounds[b][1]-bounds[b][0])
		for _, i := range order[bounds[b][0]:bounds[b][1]] {
			srcs = append(srcs, ids[i])
		}
		return srcs
	}
	// done runs on the goroutine that decoded batch b and writes only the
	// results of b's lines
	done := func(b int, hyps [][]Hypothesis) error {
		for k, h := range hyps {
			i := order[bounds[b][0]+k]
			r, err := t.result(h, ids[i], prefix, out[i].Links)
			if err != nil {
				return fmt.Errorf("%sline %d: %w", what, t.Stats.Lines+i+1, err)
			}
			out[i] = r
		}
		return nil
	}
	if t.Pool != nil {
		err = t.Pool.Run(len(bounds), batch, prefix, done)
	} else {
		for b := 0; b < len(bounds) && err == nil; b++ {
			err = done(b, t.S.Search(batch(b), prefix))
		}
	}
	if err != nil {
		return nil, err
	}
	for _, r := range out {
		if len(r.Hyps) > 0 {
			t.Stats.Tokens += len(r.Hyps[0].Tokens)
		}
	}
	return out, nil
}

// encodeLines makes the encoder inputs of the non-empty lines (truncated
// to MaxSrcLen) and returns them with those lines' indices, longest first:
// a batch too large for memory then fails at once.
func (t *Translator) encodeLines(lines []string, src, tgt, what string) (ids [][]int32, order []int, err error) {
	enc := t.B.Vocab.NewEncoder()
	ids = make([][]int32, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		x, err := t.B.Seq.EncoderInput(nil, enc.Encode(nil, l), src, tgt)
		if err != nil {
			return nil, nil, fmt.Errorf("%sline %d: %w", what, t.Stats.Lines+i+1, err)
		}
		if n := t.SrcLimit(); len(x) > n {
			if t.Warn != nil {
				fmt.Fprintf(t.Warn, "warning: %sline %d: %d source tokens, truncated to %d\n", what, t.Stats.Lines+i+1, len(x), n)
			}
			x = truncateSource(x, n)
		}
		ids[i] = x
		order = append(order, i)
		t.Stats.SrcTokens += len(x)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(ids[b]), len(ids[a])) })
	return ids, order, nil
}

// result detokenises one line's hypotheses and, when the translator aligns,
// appends their word alignments to links.
func (t *Translator) result(hyps []Hypothesis, src, prefix []int32, links [][]Link) (Result, error) {
	r := Result{Hyps: hyps, Links: links}
	for _, h := range hyps {
		r.Texts = append(r.Texts, OutputLine(t.B.Vocab.Decode(h.Tokens)))
		if t.Align {
			l, err := AlignWords(t.B.Model, t.B.Vocab, src, prefix, h.Tokens, t.AlignLayer)
			if err != nil {
				return r, err
			}
			r.Links = append(r.Links, l)
		}
	}
	return r, nil
}

// batchEnd returns the end of the batch that starts at order[start]: at
// most BatchSize sentences, MaxTokens padded source tokens (the first,
// longest sentence sets the width), MaxRows decoder rows and MaxStateTokens
// rows × output positions, at least one sentence.
func (t *Translator) batchEnd(order []int, ids [][]int32, start int) int {
	width := len(ids[order[start]])
	size := t.BatchSize
	o := t.S.Options()
	if t.MaxRows > 0 {
		size = min(size, max(1, t.MaxRows/o.rowsPerSentence()))
	}
	if t.MaxStateTokens > 0 {
		size = min(size, max(1, t.MaxStateTokens/(o.rowsPerSentence()*(o.maxLen(width)+1))))
	}
	end := start + 1
	for end < len(order) && end-start < size && (t.MaxTokens <= 0 || width*(end-start+1) <= t.MaxTokens) {
		end++
	}
	return end
}

// OutputLine makes a decoded hypothesis safe to write as one line: a model
// can generate byte-fallback pieces that form invalid UTF-8 or a line break,
// which would corrupt the line-aligned output. Invalid bytes become U+FFFD
// (as SentencePiece decodes them) and line breaks become spaces.
func OutputLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.ContainsAny(s, "\n\r\v\f\u0085\u2028\u2029") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
				return ' '
			}
			return r
		}, s)
	}
	return s
}
