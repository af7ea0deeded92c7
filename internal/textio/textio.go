// Package textio is strata's one way to read text input: a file, "-" for
// standard input, or gzip (recognised by its magic bytes, whatever the
// name), from regular files, pipes and FIFOs alike (nothing seeks), one
// sentence per line. A file that is absent is read from FILE.gz when that
// exists: archived run outputs (hypotheses, metrics.jsonl, train.log) are
// kept gzipped under their plain names plus .gz. Every command that reads text goes through here, so
// `strata translate --input corpus.gz`, `--input <(zcat f.gz)` and
// `cat f | strata eval --hyp -` all work the same.
package textio

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"
)

// Stdin is the path that means standard input.
const Stdin = "-"

// IsStdin says whether path names standard input ("-" or empty).
func IsStdin(path string) bool { return path == Stdin || path == "" }

// Name is how messages name path: "standard input" for "-".
func Name(path string) string {
	if IsStdin(path) {
		return "standard input"
	}
	return path
}

// Reader is an open text input, decompressed.
type Reader struct {
	io.Reader
	closers []io.Closer
	// Size is the size in bytes of a regular, uncompressed file, else -1
	// (a pipe, standard input, gzip): for progress bars.
	Size int64
}

// Close closes the input (standard input stays open).
func (r *Reader) Close() error {
	var err error
	for i := len(r.closers) - 1; i >= 0; i-- {
		if e := r.closers[i].Close(); err == nil {
			err = e
		}
	}
	return err
}

// GzSuffix is the suffix of a file kept gzipped in place of its plain name.
const GzSuffix = ".gz"

// Resolve returns the file that stands for path: path itself when it
// exists (or names standard input), else path.gz when that exists, else
// path (whose error the caller then reports).
func Resolve(path string) string {
	if IsStdin(path) || strings.HasSuffix(path, GzSuffix) {
		return path
	}
	if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return path
	}
	if _, err := os.Stat(path + GzSuffix); err == nil {
		return path + GzSuffix
	}
	return path
}

// Exists says whether path or path.gz exists.
func Exists(path string) bool {
	_, err := os.Stat(Resolve(path))
	return err == nil
}

// ReadFile returns the whole decompressed content of path (or path.gz).
func ReadFile(path string) ([]byte, error) {
	s, err := ReadAll(path)
	return []byte(s), err
}

// Open opens path ("-": standard input; path.gz when path is absent) for
// reading, decompressing gzip.
func Open(path string) (*Reader, error) {
	return OpenFrom(path, os.Stdin)
}

// OpenFrom is Open with stdin standing for standard input.
func OpenFrom(path string, stdin io.Reader) (*Reader, error) {
	r := &Reader{Size: -1}
	var src io.Reader = stdin
	if !IsStdin(path) {
		f, err := os.Open(Resolve(path))
		if err != nil {
			return nil, err
		}
		r.closers = append(r.closers, f)
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			r.Size = st.Size()
		}
		src = f
	}
	br := bufio.NewReaderSize(src, 1<<20)
	r.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("%s: %w", Name(path), err)
		}
		r.Reader, r.Size = gzipErrors{zr}, -1
		r.closers = append(r.closers, zr)
	}
	return r, nil
}

// gzipErrors says what a failed decompression means: compress/gzip's
// errors ("unexpected EOF", "invalid checksum") say neither that the file
// was compressed nor what is wrong with it.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("the gzip data ends early: the file is truncated (an interrupted download or copy?)")
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		err = fmt.Errorf("the gzip data is corrupt (%w)", err)
	}
	return n, err
}

// ReadAll returns the whole (decompressed) input as one string.
func ReadAll(path string) (string, error) {
	r, err := Open(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	var sb strings.Builder
	if r.Size > 0 {
		sb.Grow(int(r.Size))
	}
	if _, err := io.Copy(&sb, r); err != nil {
		return "", fmt.Errorf("%s: %w", Name(path), err)
	}
	return sb.String(), nil
}

// ReadLines reads every line of path: a final newline ends the last line
// (it does not start an empty one), the terminator ("\n" or "\r\n") is
// removed and nothing else, so trailing spaces reach the caller (SacreBLEU
// keeps them too). A line that is not UTF-8 is an error naming the file
// and line.
func ReadLines(path string) ([]string, error) {
	text, err := ReadAll(path)
	if err != nil {
		return nil, err
	}
	return SplitLines(Name(path), text)
}

// SplitLines cuts text into lines as ReadLines does; name is used in
// errors.
func SplitLines(name, text string) ([]string, error) {
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
		if err := CheckUTF8(name, len(lines)+1, l); err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// LineReader reads lines one at a time, for inputs too large to hold.
type LineReader struct {
	br   *bufio.Reader
	name string
	n    int
}

// NewLineReader reads lines from r; name is used in errors.
func NewLineReader(r io.Reader, name string) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, 1<<16), name: name}
}

// Next returns the next line without its terminator, or io.EOF after the
// last one.
func (lr *LineReader) Next() (string, error) {
	b, err := lr.br.ReadBytes('\n')
	if len(b) == 0 && err == io.EOF {
		return "", io.EOF
	}
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("%s: line %d: %w", lr.name, lr.n+1, err)
	}
	lr.n++
	b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
	return string(b), nil
}

// CheckUTF8 is the error for line number n of name when it is not UTF-8
// (nil when it is): every reader of text refuses such a line the same way.
func CheckUTF8(name string, n int, line string) error {
	if utf8.ValidString(line) {
		return nil
	}
	return fmt.Errorf("%s:%d: invalid UTF-8 at byte %d of the line (want UTF-8 text)", name, n, invalidAt(line))
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
