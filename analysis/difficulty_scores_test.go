package analysis

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Scores written to difficulty.tsv read back as the same float64 values,
// so a ranking read from the file cuts exactly the buckets it was written
// with, even where two scores differ in the 15th digit.
func TestDifficultyScoresRoundTrip(t *testing.T) {
	scores := []float64{41.123456789012345, 7, 41.123456789012340, 0.1 + 0.2, 1e-7, 250.5}
	mean := []float64{40.5, 7, 40.0000001, 0.25, 0, 200}
	buckets, err := Buckets(scores, 2)
	if err != nil {
		t.Fatal(err)
	}
	rep := &DifficultyReport{Buckets: []DifficultyBucket{{Name: "Q1"}, {Name: "Q2"}}, Systems: []DifficultySystem{{Name: "base", BLEU: []float64{20, 10}}}}
	dir := t.TempDir()
	if err := WriteDifficulty(io.Discard, dir, rep, buckets, scores, mean); err != nil {
		t.Fatal(err)
	}
	gotS, gotM, err := ReadDifficultyScores(filepath.Join(dir, "difficulty.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gotS, scores) || !slices.Equal(gotM, mean) {
		t.Fatalf("read back scores %v, means %v; wrote %v, %v", gotS, gotM, scores, mean)
	}
	again, _ := Buckets(gotS, 2)
	if !slices.EqualFunc(again, buckets, slices.Equal) {
		t.Fatalf("buckets from the file %v, from the scores %v", again, buckets)
	}
}

func TestReadDifficultyScoresNamesTheBadLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"line\tscore\n", ":1: want the header"},
		{difficultyHeader + "\n", "no scored lines"},
		{difficultyHeader + "\n1\t2\t3\tSimple\n3\t2\t3\tSimple\n", ":3: want line number 2"},
		{difficultyHeader + "\n1\t2\t3\n", ":2: want 4 tab-separated fields"},
		{difficultyHeader + "\n1\tx\t3\tSimple\n", `:2: want numbers for score and mean_loss, got "x"`},
	} {
		path := filepath.Join(t.TempDir(), "difficulty.tsv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadDifficultyScores(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: error %v, want one naming %s and %q", c.text, err, path, c.want)
		}
	}
}
