package data

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/strata-nmt/strata/subword"
)

// Dataset is a prepared data directory in memory.
type Dataset struct {
	Dir      string
	Vocab    *Vocab
	Manifest *Manifest
	// Splits by name: train, valid, test, ...
	Splits map[string]*Split
}

// Split is a list of examples drawn from the directions (parts) of its
// corpora. Example i is numbered across parts in order.
type Split struct {
	Name  string
	Parts []*Part
	start []int // start[k] is the index of part k's first example
}

// Part is one direction of one corpus.
type Part struct {
	SrcLang, TgtLang string
	// SrcLangID and TgtLangID index Vocab.Languages().
	SrcLangID, TgtLangID int
	Corpus               *Corpus
	// Reversed: the source is the corpus's second column.
	Reversed bool
}

// Len is the number of examples.
func (p *Part) Len() int { return p.Corpus.Len() }

// Pair returns the source and target token ids (pieces only) of example i.
func (p *Part) Pair(i int) (src, tgt []int32) {
	a, b := p.Corpus.Pair(i)
	if p.Reversed {
		return b, a
	}
	return a, b
}

// Len is the number of examples in the split.
func (s *Split) Len() int { return s.start[len(s.Parts)] }

// Locate returns the part of example i and its index within the part.
func (s *Split) Locate(i int) (*Part, int) {
	k := sort.SearchInts(s.start, i+1) - 1
	return s.Parts[k], i - s.start[k]
}

// Line returns the input line (1-based) of example i, e.g. to match a
// translation of a dev set with its reference.
func (s *Split) Line(i int) int {
	p, j := s.Locate(i)
	return int(p.Corpus.Line[j])
}

// Open loads a data directory written by Prepare.
func Open(dir string) (*Dataset, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := m.checkOutputs(dir, false); err != nil {
		return nil, fmt.Errorf("%s is damaged (rerun strata prepare): %w", dir, err)
	}
	model, err := subword.Load(filepath.Join(dir, ModelFile))
	if err != nil {
		return nil, err
	}
	style, err := parseTagStyle(m.TagStyle)
	if err != nil {
		return nil, err
	}
	v, err := NewVocab(model, m.Languages, style)
	if err != nil {
		return nil, err
	}
	if _, err := parseDecoderStart(m.DecoderStart); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := m.CheckVocab(dir, v); err != nil {
		return nil, err
	}
	var files []string
	seen := map[string]bool{}
	for _, parts := range m.Splits {
		for _, p := range parts {
			if !seen[p.Corpus] {
				seen[p.Corpus] = true
				files = append(files, p.Corpus)
			}
		}
	}
	sort.Strings(files)
	corpora := make([]*Corpus, len(files))
	err = forEach(len(files), runtime.GOMAXPROCS(0), func(i int) error {
		c, err := readCorpusFile(filepath.Join(dir, files[i]), v.Size())
		if c != nil {
			c.Name = files[i]
		}
		corpora[i] = c
		return err
	})
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Dir: dir, Vocab: v, Manifest: m, Splits: map[string]*Split{}}
	if err := ds.buildSplits(corpora); err != nil {
		return nil, err
	}
	return ds, nil
}

// buildSplits makes the splits of the manifest from loaded corpora.
func (d *Dataset) buildSplits(corpora []*Corpus) error {
	byName := map[string]*Corpus{}
	for _, c := range corpora {
		byName[c.Name] = c
	}
	for name, infos := range d.Manifest.Splits {
		s := &Split{Name: name, start: []int{0}}
		for _, pi := range infos {
			c := byName[pi.Corpus]
			if c == nil || c.Len() != pi.Pairs {
				return fmt.Errorf("split %s: corpus %s missing or not of %d pairs", name, pi.Corpus, pi.Pairs)
			}
			sl, ok1 := d.Vocab.LangIndex(pi.SrcLang)
			tl, ok2 := d.Vocab.LangIndex(pi.TgtLang)
			if !ok1 || !ok2 {
				return fmt.Errorf("split %s: languages %s-%s not in the vocabulary", name, pi.SrcLang, pi.TgtLang)
			}
			if c.SrcLang == "" { // loaded from disk: languages come from the manifest
				c.SrcLang, c.TgtLang = pi.SrcLang, pi.TgtLang
				if pi.Reversed {
					c.SrcLang, c.TgtLang = pi.TgtLang, pi.SrcLang
				}
			}
			s.Parts = append(s.Parts, &Part{SrcLang: pi.SrcLang, TgtLang: pi.TgtLang, SrcLangID: sl, TgtLangID: tl, Corpus: c, Reversed: pi.Reversed})
			s.start = append(s.start, s.start[len(s.start)-1]+c.Len())
		}
		d.Splits[name] = s
	}
	return nil
}

// Sequencer returns the sequence builder of the tag scheme the data was
// prepared with.
func (d *Dataset) Sequencer() Sequencer {
	return Sequencer{Scheme: mustScheme(d.Manifest.TagScheme), TagInLoss: d.Manifest.TagInLoss, Vocab: d.Vocab,
		Start: mustStart(d.Manifest.DecoderStart)}
}

// Split returns a split by name, with an error listing the others.
func (d *Dataset) Split(name string) (*Split, error) {
	if s, ok := d.Splits[name]; ok {
		return s, nil
	}
	var names []string
	for n := range d.Splits {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%s has no split %q (it has %v)", d.Dir, name, names)
}

// Verify checks every output file against its SHA-256 in the manifest.
func (d *Dataset) Verify() error { return d.Manifest.checkOutputs(d.Dir, true) }

// NewBatcher makes a batcher over the named split with the data's tag
// scheme.
func (d *Dataset) NewBatcher(split string, opt BatcherOptions) (*Batcher, error) {
	s, err := d.Split(split)
	if err != nil {
		return nil, err
	}
	return NewBatcher(s, d.Sequencer(), opt)
}
