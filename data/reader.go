package data

import (
	"fmt"
	"strings"

	"github.com/strata-nmt/strata/internal/textio"
)

// Parallel is a parallel corpus in memory: Src[i] and Tgt[i] come from
// line i+1 of the input.
type Parallel struct {
	Src, Tgt []string
}

// ReadTSV reads source<TAB>target lines, plain or gzip.
func ReadTSV(path string) (*Parallel, error) {
	lines, err := textio.ReadLines(path)
	if err != nil {
		return nil, err
	}
	p := &Parallel{Src: make([]string, len(lines)), Tgt: make([]string, len(lines))}
	for i, l := range lines {
		tab := strings.IndexByte(l, '\t')
		if tab < 0 {
			return nil, fmt.Errorf("%s:%d: no TAB in line: want source<TAB>target", path, i+1)
		}
		if n := strings.Count(l, "\t"); n > 1 {
			return nil, fmt.Errorf("%s:%d: %d TABs in line: want exactly one (source<TAB>target)", path, i+1, n)
		}
		p.Src[i], p.Tgt[i] = l[:tab], l[tab+1:]
	}
	return p, nil
}

// ReadAligned reads two files with one sentence a line, plain or gzip; they
// must have the same number of lines.
func ReadAligned(srcPath, tgtPath string) (*Parallel, error) {
	var p Parallel
	var err error
	if p.Src, err = textio.ReadLines(srcPath); err != nil {
		return nil, err
	}
	if p.Tgt, err = textio.ReadLines(tgtPath); err != nil {
		return nil, err
	}
	if len(p.Src) != len(p.Tgt) {
		return nil, fmt.Errorf("aligned files differ in length: %s has %d lines, %s has %d", srcPath, len(p.Src), tgtPath, len(p.Tgt))
	}
	return &p, nil
}

// readCorpus reads a corpus spec.
func readCorpus(s *CorpusSpec) (*Parallel, error) {
	switch s.Format {
	case "tmx", "xliff", "po":
		return readCatalog(s)
	case FormatMO:
		return ReadMO(s.Path)
	}
	if s.Path != "" {
		return ReadTSV(s.Path)
	}
	return ReadAligned(s.Src, s.Tgt)
}

// isBlank says whether a side is empty for filtering: nothing but spaces.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
