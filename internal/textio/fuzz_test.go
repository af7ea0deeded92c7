package textio

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadLines: any input, plain or gzip, from a file or standard input,
// gives one line per line (the "\n" or "\r\n" terminator removed, nothing
// else; a final newline starts no empty line) or an error naming the input
// and line; valid UTF-8 is never refused, and LineReader agrees. Seeds
// include the first lines of a quickstart test set.
func FuzzReadLines(f *testing.F) {
	for _, s := range []string{"", "\n", "a\r\nb\n", "trailing space \nno newline", "bad \xff\n", "\r", "line\r\r\n", "中文\t\v\f\n", "\x1f\x8b not gzip"} {
		f.Add([]byte(s), false, false)
	}
	f.Add([]byte("öffnen das Datei 🐈\n\nx"), true, false)
	f.Add([]byte("a\nb"), true, true)
	path := filepath.Join(f.TempDir(), "in.txt")
	f.Fuzz(func(t *testing.T, text []byte, gz, stdin bool) {
		input := text
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(text)
			w.Close()
			input = b.Bytes()
		}
		var lines []string
		var err error
		name := "standard input"
		if stdin {
			lines, err = readFrom(input)
		} else {
			name = path
			if werr := os.WriteFile(path, input, 0o644); werr != nil {
				t.Fatal(werr)
			}
			lines, err = ReadLines(path)
		}
		if err != nil {
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error without the input's name: %v", err)
			}
			if !gz && len(text) >= 2 && text[0] == 0x1f && text[1] == 0x8b {
				return // plain text that starts like gzip is read as gzip
			}
			if utf8.Valid(text) {
				t.Fatalf("valid UTF-8 refused: %v", err)
			}
			return
		}
		if !gz && len(text) >= 2 && text[0] == 0x1f && text[1] == 0x8b {
			return
		}
		want := strings.Split(string(text), "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		for i := range want {
			want[i] = strings.TrimSuffix(want[i], "\r")
		}
		if !slices.Equal(lines, want) {
			t.Fatalf("lines %q from %q", lines, text)
		}
		lr := NewLineReader(bytes.NewReader(text), "x")
		for i := 0; ; i++ {
			l, err := lr.Next()
			if err == io.EOF {
				if i != len(lines) {
					t.Fatalf("LineReader: %d lines, ReadLines %d", i, len(lines))
				}
				break
			}
			if err != nil || i >= len(lines) || l != lines[i] {
				t.Fatalf("LineReader line %d: %q, %v; ReadLines %q", i+1, l, err, lines)
			}
		}
	})
}

// readFrom reads lines as ReadLines does, from in standing for standard
// input.
func readFrom(in []byte) ([]string, error) {
	r, err := OpenFrom(Stdin, bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name(Stdin), err)
	}
	return SplitLines(Name(Stdin), string(b))
}
