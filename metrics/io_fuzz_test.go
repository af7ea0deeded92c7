package metrics

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadSegments: any file gives one segment per line (the "\n" or
// "\r\n" terminator removed, nothing else) or an error naming the file and
// line; never a panic. Seeds include the first lines of a quickstart test
// set.
func FuzzReadSegments(f *testing.F) {
	for _, s := range []string{"", "\n", "a\r\nb\n", "trailing space \nno newline", "bad \xff\n", "\r", "line\r\r\n", "中文\t\v\f\n"} {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "hyp.txt")
	f.Fuzz(func(t *testing.T, text []byte) {
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		segs, err := ReadSegments(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line") {
				t.Fatalf("error without file and line: %v", err)
			}
			if utf8.Valid(text) {
				t.Fatalf("valid UTF-8 refused: %v", err)
			}
			return
		}
		want := strings.Split(string(text), "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		for i := range want {
			want[i] = strings.TrimSuffix(want[i], "\r")
		}
		if !slices.Equal(segs, want) {
			t.Fatalf("segments %q from %q", segs, text)
		}
	})
}
