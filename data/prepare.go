package data

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/internal/progress"
	"github.com/strata-nmt/strata/subword"
)

// PrepareOptions control Prepare beyond the config.
type PrepareOptions struct {
	// Log receives progress and the report; nil discards them.
	Log io.Writer
	// Terminal draws progress bars on Log instead of log lines.
	Terminal bool
	// Force rebuilds even when the directory is up to date.
	Force bool
	// Workers bounds parallelism (GOMAXPROCS if 0).
	Workers int
	// PaddingMaxTokens is the batch size (in tokens, padding included) for
	// which the report gives the padding ratio of a train epoch (4096 if 0).
	PaddingMaxTokens int
}

// Report sums up a prepare run; the manifest keeps it.
type Report struct {
	UpToDate bool           `json:"-"`
	BPE      BPEReport      `json:"bpe"`
	Corpora  []CorpusReport `json:"corpora"`
	Padding  EpochStats     `json:"train_epoch_padding"`
	Seconds  float64        `json:"seconds"`
}

// BPEReport describes the subword model.
type BPEReport struct {
	Learned              bool    `json:"learned"` // false: reused from bpe.model
	Lines                int64   `json:"lines"`
	Words                int64   `json:"distinct_words"`
	CharsSeen            int     `json:"chars_seen"`
	Alphabet             int     `json:"alphabet"`
	UncoveredOccurrences int64   `json:"uncovered_char_occurrences"`
	Merges               int     `json:"merges"`
	StoppedEarly         bool    `json:"stopped_early"`
	LastFrequency        int64   `json:"last_merge_frequency"`
	Pieces               int     `json:"pieces"`
	VocabSize            int     `json:"vocab_size"`
	Seconds              float64 `json:"seconds"`
}

// CorpusReport counts what happened to one corpus.
type CorpusReport struct {
	Split     string `json:"split"`
	File      string `json:"file"`
	Input     string `json:"input"`
	Pair      string `json:"pair"`
	Read      int    `json:"read"`
	Kept      int    `json:"kept"`
	Empty     int    `json:"dropped_empty"`
	TooLong   int    `json:"dropped_too_long"`
	SrcTokens int64  `json:"src_tokens"`
	TgtTokens int64  `json:"tgt_tokens"`
	Fallbacks int64  `json:"byte_fallback_chars"`
	// TopFallbacks lists the characters that fell back most often.
	TopFallbacks []CharCount `json:"top_fallbacks,omitempty"`
}

// CharCount is a character (as U+XXXX and itself) and a count.
type CharCount struct {
	Char  string `json:"char"`
	Count int64  `json:"count"`
}

// topChars returns the n most frequent characters of counts.
func topChars(counts map[rune]int64, n int) []CharCount {
	type rc struct {
		r rune
		n int64
	}
	var all []rc
	for r, c := range counts {
		all = append(all, rc{r, c})
	}
	slices.SortFunc(all, func(a, b rc) int {
		if a.n != b.n {
			return cmp.Compare(b.n, a.n)
		}
		return cmp.Compare(a.r, b.r)
	})
	var out []CharCount
	for _, x := range all[:min(n, len(all))] {
		name := "invalid byte"
		if x.r != subword.InvalidByte {
			name = fmt.Sprintf("U+%04X %q", x.r, x.r)
		}
		out = append(out, CharCount{name, x.n})
	}
	return out
}

// corpusJob is one corpus of one split being prepared.
type corpusJob struct {
	split string
	spec  *CorpusSpec
	file  string
	text  *Parallel
	rep   CorpusReport
}

// Prepare builds the data directory outDir from cfg: the subword model, the
// vocabulary, the binarised corpora and, last, the manifest. A rerun whose
// config and inputs are unchanged does nothing.
func Prepare(cfg *Config, outDir string, opt PrepareOptions) (_ *Report, err error) {
	start := time.Now()
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.PaddingMaxTokens <= 0 {
		opt.PaddingMaxTokens = 4096
	}
	if err := cfg.Resolve(); err != nil {
		return nil, err
	}
	inputs, key, err := inputKey(cfg)
	if err != nil {
		return nil, err
	}
	old, _ := ReadManifest(outDir)
	if !opt.Force && old != nil && old.Key == key && old.checkOutputs(outDir, false) == nil {
		logf(opt.Log, "%s is up to date", outDir)
		old.Report.UpToDate = true
		return &old.Report, nil
	}
	// From here on the directory is incomplete until the new manifest lands.
	if err := os.Remove(filepath.Join(outDir, ManifestFile)); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	jobs, err := readAll(cfg, opt)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	vocab, err := buildVocab(cfg, jobs, opt, &rep.BPE)
	if err != nil {
		return nil, err
	}
	// the directory is made only now, when there is something to write:
	// reading and learning the vocabulary take the longest, and a prepare
	// interrupted or failing then leaves no empty directory behind
	if _, statErr := os.Stat(outDir); os.IsNotExist(statErr) {
		defer func() {
			if err != nil {
				os.Remove(outDir) // only if still empty
			}
		}()
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	m := &Manifest{
		Format: manifestFormat, Version: manifestVersion, Key: key,
		Languages: cfg.Languages, TagScheme: string(mustScheme(cfg.Tags)), TagStyle: string(vocab.TagStyle()),
		TagInLoss: cfg.TagInLoss, DecoderStart: specialTokens[mustStart(cfg.DecoderStart)], VocabSize: vocab.Size(), VocabHash: vocab.Hash(), MaxLen: cfg.MaxLen,
		Inputs: inputs, Splits: map[string][]PartInfo{}, Config: cfg,
	}
	if err := writeVocabFiles(outDir, vocab, m); err != nil {
		return nil, err
	}
	corpora, err := binarise(jobs, vocab, cfg, outDir, opt, m)
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		rep.Corpora = append(rep.Corpora, j.rep)
	}
	ds := &Dataset{Vocab: vocab, Manifest: m, Splits: map[string]*Split{}}
	if err := ds.buildSplits(corpora); err != nil {
		return nil, err
	}
	seq := ds.Sequencer()
	if b, err := NewBatcher(ds.Splits["train"], seq, BatcherOptions{MaxTokens: opt.PaddingMaxTokens, Seed: 1, Temperature: 1}); err == nil {
		rep.Padding = b.EpochStats(1)
	}
	rep.Seconds = time.Since(start).Seconds()
	m.Report = *rep
	if err := m.write(outDir); err != nil {
		return nil, err
	}
	removeStale(outDir, old, m)
	return rep, nil
}

// removeStale deletes the files an earlier run listed that this one did not
// write (e.g. a corpus dropped from the config). Files the manifests never
// listed are left alone.
func removeStale(dir string, old, cur *Manifest) {
	if old == nil {
		return
	}
	keep := map[string]bool{ManifestFile: true}
	for _, o := range cur.Outputs {
		keep[o.Path] = true
	}
	for _, o := range old.Outputs {
		if !keep[o.Path] && filepath.Base(o.Path) == o.Path {
			os.Remove(filepath.Join(dir, o.Path))
		}
	}
}

func mustStart(s string) int32 {
	id, _ := parseDecoderStart(s)
	return id
}

func mustScheme(s string) TagScheme {
	t, _ := ParseTagScheme(s)
	return t
}

// inputKey checksums every input and hashes them with the resolved config.
func inputKey(cfg *Config) ([]FileSum, string, error) {
	var paths []string
	for _, name := range cfg.SplitNames() {
		for _, s := range cfg.Splits[name] {
			paths = append(paths, s.Path, s.Src, s.Tgt)
		}
	}
	paths = append(paths, cfg.BPE.Model)
	seen := map[string]bool{"": true}
	var sums []FileSum
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		s, err := sumFile(p)
		if err != nil {
			return nil, "", err
		}
		sums = append(sums, s)
	}
	raw, err := json.Marshal(struct {
		Version int
		Config  *Config
		Inputs  []FileSum
	}{manifestVersion, cfg, sums})
	if err != nil {
		return nil, "", err
	}
	h := sha256.Sum256(raw)
	return sums, hex.EncodeToString(h[:]), nil
}

// readAll reads every corpus, several at a time.
func readAll(cfg *Config, opt PrepareOptions) ([]*corpusJob, error) {
	var jobs []*corpusJob
	for _, name := range cfg.SplitNames() {
		for i := range cfg.Splits[name] {
			s := &cfg.Splits[name][i]
			file := fmt.Sprintf("%s.%02d.%s.bin", name, i, s.Pair)
			jobs = append(jobs, &corpusJob{split: name, spec: s, file: file,
				rep: CorpusReport{Split: name, File: file, Input: s.describe(), Pair: s.Pair}})
		}
	}
	p := newProgress(opt.Log, opt.Terminal, "read corpora", int64(len(jobs)))
	err := forEach(len(jobs), opt.Workers, func(i int) error {
		t, err := readCorpus(jobs[i].spec)
		jobs[i].text = t
		if err == nil {
			jobs[i].rep.Read = len(t.Src)
		}
		p.Add(1)
		return err
	})
	p.Finish()
	return jobs, err
}

// forEach runs fn(0..n-1) on up to workers goroutines and returns the first
// error (by index, so the message does not depend on scheduling).
func forEach(n, workers int, fn func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// buildVocab learns the subword model on both sides of the train corpora
// (or loads bpe.model) and makes the vocabulary.
func buildVocab(cfg *Config, jobs []*corpusJob, opt PrepareOptions, rep *BPEReport) (*Vocab, error) {
	style, _ := parseTagStyle(cfg.TagStyle)
	t0 := time.Now()
	var model *subword.Model
	if cfg.BPE.Model != "" {
		m, err := subword.Load(cfg.BPE.Model)
		if err != nil {
			return nil, err
		}
		model = m
	} else {
		wc := subword.NewWordCounts()
		for _, j := range jobs {
			if j.split == "train" {
				wc.AddLines(j.text.Src, opt.Workers)
				wc.AddLines(j.text.Tgt, opt.Workers)
			}
		}
		logf(opt.Log, "bpe: %d lines, %d distinct words", wc.Lines(), wc.Len())
		bo := subword.Options{
			NumMerges: cfg.BPE.Merges, CharacterCoverage: cfg.BPE.CharacterCoverage,
			MinFrequency: cfg.BPE.MinFrequency, MaxPieceRunes: cfg.BPE.MaxPieceRunes,
		}
		if cfg.BPE.VocabSize > 0 {
			bo.NumPieces = cfg.BPE.VocabSize - NumSpecial - len(cfg.Languages)
			if bo.NumPieces <= 0 {
				return nil, fmt.Errorf("bpe: vocab_size %d does not even hold the special tokens and tags", cfg.BPE.VocabSize)
			}
		}
		var p *progress.Reporter
		bo.Progress = func(done, total int) {
			if p == nil {
				p = newProgress(opt.Log, opt.Terminal, "bpe merges", int64(total))
			}
			p.Add(100)
		}
		m, st, err := subword.Learn(wc, bo)
		if p != nil {
			p.Finish()
		}
		if err != nil {
			return nil, err
		}
		model = m
		*rep = BPEReport{Learned: true, Lines: st.Lines, Words: st.Words, CharsSeen: st.CharsSeen, Alphabet: st.Alphabet,
			UncoveredOccurrences: st.UncoveredOccurrences, Merges: st.Merges, StoppedEarly: st.StoppedEarly, LastFrequency: st.LastFrequency}
	}
	v, err := NewVocab(model, cfg.Languages, style)
	if err != nil {
		return nil, err
	}
	rep.Pieces, rep.VocabSize, rep.Seconds = model.NumPieces(), v.Size(), time.Since(t0).Seconds()
	if !rep.Learned {
		rep.Merges, rep.Alphabet = model.NumMerges(), model.AlphabetSize()
	}
	return v, nil
}

// writeVocabFiles writes the model and a readable vocabulary (id, token).
func writeVocabFiles(dir string, v *Vocab, m *Manifest) error {
	if err := v.Model().Save(filepath.Join(dir, ModelFile)); err != nil {
		return err
	}
	err := atomicfile.WriteWith(filepath.Join(dir, VocabFile), func(w io.Writer) error {
		for id := int32(0); int(id) < v.Size(); id++ {
			tok := v.Token(id)
			if strings.ContainsAny(tok, "\t\n\r") || tok != strings.TrimSpace(tok) {
				tok = strconv.Quote(tok)
			}
			if _, err := fmt.Fprintf(w, "%d\t%s\n", id, tok); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return addOutputs(dir, m, ModelFile, VocabFile)
}

func addOutputs(dir string, m *Manifest, names ...string) error {
	for _, n := range names {
		s, err := sumFile(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		s.Path = n
		m.Outputs = append(m.Outputs, s)
	}
	return nil
}

// binarise encodes, filters and writes every corpus, and records the splits.
func binarise(jobs []*corpusJob, v *Vocab, cfg *Config, dir string, opt PrepareOptions, m *Manifest) ([]*Corpus, error) {
	var total int64
	for _, j := range jobs {
		total += 2 * int64(j.rep.Read)
	}
	p := newProgress(opt.Log, opt.Terminal, "encode", total)
	var corpora []*Corpus
	for _, j := range jobs {
		c := encodeCorpus(j, v, cfg, opt.Workers, p)
		if err := atomicfile.WriteWith(filepath.Join(dir, j.file), c.writeTo); err != nil {
			return nil, err
		}
		if err := addOutputs(dir, m, j.file); err != nil {
			return nil, err
		}
		corpora = append(corpora, c)
		j.text = nil // free the text
		for _, d := range directions(j.spec) {
			pi := PartInfo{Corpus: j.file, SrcLang: c.SrcLang, TgtLang: c.TgtLang, Reversed: d, Pairs: c.Len()}
			if d {
				pi.SrcLang, pi.TgtLang = c.TgtLang, c.SrcLang
			}
			m.Splits[j.split] = append(m.Splits[j.split], pi)
		}
	}
	p.Finish()
	return corpora, nil
}

// directions lists the parts of a corpus: false is forward, true backward.
func directions(s *CorpusSpec) []bool {
	switch s.Directions {
	case "backward":
		return []bool{true}
	case "both":
		return []bool{false, true}
	}
	return []bool{false}
}

// encodeCorpus encodes both sides and drops (counting) empty and over-long
// pairs when the corpus filters.
func encodeCorpus(j *corpusJob, v *Vocab, cfg *Config, workers int, p *progress.Reporter) *Corpus {
	model := v.Model()
	src, sst := model.EncodeLines(j.text.Src, workers, p.Add)
	tgt, tst := model.EncodeLines(j.text.Tgt, workers, p.Add)
	j.rep.Fallbacks = sst.Fallbacks + tst.Fallbacks
	chars := maps.Clone(sst.FallbackChars)
	if chars == nil {
		chars = map[rune]int64{}
	}
	for r, n := range tst.FallbackChars {
		chars[r] += n
	}
	j.rep.TopFallbacks = topChars(chars, 5)
	off := int32(v.pieceOffset())
	var line []uint32
	ks, kt := src[:0], tgt[:0]
	for i := range src {
		if *j.spec.Filter {
			if isBlank(j.text.Src[i]) || isBlank(j.text.Tgt[i]) {
				j.rep.Empty++
				continue
			}
			if cfg.MaxLen > 0 && (len(src[i]) > cfg.MaxLen || len(tgt[i]) > cfg.MaxLen) {
				j.rep.TooLong++
				continue
			}
		}
		for _, s := range [][]int32{src[i], tgt[i]} {
			for k := range s {
				s[k] += off
			}
		}
		line = append(line, uint32(i+1))
		ks, kt = append(ks, src[i]), append(kt, tgt[i])
	}
	sl, tl := j.spec.langs()
	c := newCorpus(j.file, sl, tl, line, ks, kt)
	j.rep.Kept = c.Len()
	j.rep.SrcTokens, j.rep.TgtTokens = c.Tokens()
	return c
}

// Print writes the report as a table.
func (r *Report) Print(w io.Writer) {
	if r.UpToDate {
		fmt.Fprintln(w, "up to date: nothing to do")
	}
	b := r.BPE
	if b.Learned {
		fmt.Fprintf(w, "bpe: learned %d merges on %d lines (%d distinct words) in %.1fs; alphabet %d of %d characters (%d occurrences left to byte fallback)",
			b.Merges, b.Lines, b.Words, b.Seconds, b.Alphabet, b.CharsSeen, b.UncoveredOccurrences)
		if b.StoppedEarly {
			fmt.Fprintf(w, "; stopped early: pairs rarer than the minimum frequency")
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "bpe: reused a model of %d merges\n", b.Merges)
	}
	fmt.Fprintf(w, "vocabulary: %d tokens (%d pieces)\n", b.VocabSize, b.Pieces)
	width := len("split")
	for _, c := range r.Corpora {
		width = max(width, len(c.Split))
	}
	fmt.Fprintf(w, "%-*s %-7s %9s %9s %7s %8s %11s %11s %9s\n", width, "split", "pair", "read", "kept", "empty", "too long", "src tokens", "tgt tokens", "fallback")
	for _, c := range r.Corpora {
		fmt.Fprintf(w, "%-*s %-7s %9d %9d %7d %8d %11d %11d %9d\n", width, c.Split, c.Pair, c.Read, c.Kept, c.Empty, c.TooLong, c.SrcTokens, c.TgtTokens, c.Fallbacks)
	}
	for _, c := range r.Corpora {
		if len(c.TopFallbacks) > 0 {
			var parts []string
			for _, f := range c.TopFallbacks {
				parts = append(parts, fmt.Sprintf("%s ×%d", f.Char, f.Count))
			}
			fmt.Fprintf(w, "byte fallback in %s %s: %s\n", c.Split, c.Pair, strings.Join(parts, ", "))
		}
	}
	if p := r.Padding; p.Batches > 0 {
		fmt.Fprintf(w, "train epoch at max-tokens %d: %d batches, %d sentences, padding %.2f%% of source and %.2f%% of target positions\n",
			p.MaxTokens, p.Batches, p.Sentences, 100*p.SrcPadding, 100*p.TgtPadding)
	}
	fmt.Fprintf(w, "done in %.1fs\n", r.Seconds)
}
