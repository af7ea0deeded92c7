package data

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Parallel is a parallel corpus in memory: Src[i] and Tgt[i] come from
// line i+1 of the input.
type Parallel struct {
	Src, Tgt []string
}

// readText returns the whole (decompressed) file as one string. Gzip is
// recognised by its magic bytes, whatever the file name.
func readText(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var sb strings.Builder
	if st, err := f.Stat(); err == nil {
		sb.Grow(int(st.Size()))
	}
	if _, err := io.Copy(&sb, r); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return sb.String(), nil
}

// splitLines cuts text into lines (a final newline ends the last line, it
// does not start an empty one; a trailing \r is removed) and checks that
// each is valid UTF-8.
func splitLines(path, text string) ([]string, error) {
	n := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	lines := make([]string, 0, n)
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		var l string
		if i < 0 {
			l, text = text, ""
		} else {
			l, text = text[:i], text[i+1:]
		}
		l = strings.TrimSuffix(l, "\r")
		if !utf8.ValidString(l) {
			return nil, fmt.Errorf("%s:%d: invalid UTF-8 at byte %d of the line", path, len(lines)+1, invalidAt(l))
		}
		lines = append(lines, l)
	}
	return lines, nil
}

func invalidAt(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i + 1
		}
		i += size
	}
	return 0
}

// ReadTSV reads source<TAB>target lines, plain or gzip.
func ReadTSV(path string) (*Parallel, error) {
	text, err := readText(path)
	if err != nil {
		return nil, err
	}
	lines, err := splitLines(path, text)
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
	if p.Src, err = ReadLines(srcPath); err != nil {
		return nil, err
	}
	if p.Tgt, err = ReadLines(tgtPath); err != nil {
		return nil, err
	}
	if len(p.Src) != len(p.Tgt) {
		return nil, fmt.Errorf("aligned files differ in length: %s has %d lines, %s has %d", srcPath, len(p.Src), tgtPath, len(p.Tgt))
	}
	return &p, nil
}

// ReadLines reads a text file (plain or gzip), one sentence a line.
func ReadLines(path string) ([]string, error) {
	text, err := readText(path)
	if err != nil {
		return nil, err
	}
	return splitLines(path, text)
}

// readCorpus reads a corpus spec.
func readCorpus(s *CorpusSpec) (*Parallel, error) {
	if s.Path != "" {
		return ReadTSV(s.Path)
	}
	return ReadAligned(s.Src, s.Tgt)
}

// isBlank says whether a side is empty for filtering: nothing but spaces.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
