package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSentences(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(p, []byte(" a b \n\n  \nc\nd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int][]string{0: {"a b", "c", "d"}, 2: {"a b", "c"}} {
		got, err := Sentences(p, n)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Sentences(n=%d) = %q, %v; want %q", n, got, err, want)
		}
	}
	if err := os.WriteFile(p, []byte("\n \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Sentences(p, 0); err == nil {
		t.Fatal("a file of blank lines gave no error")
	}
}
