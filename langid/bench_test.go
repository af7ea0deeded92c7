package langid

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
)

// BenchmarkLid176 measures single-goroutine prediction (k=1) on the FLORES
// and l10n test lines; bench/langid/run.sh compares the CLI with fastText's.
func BenchmarkLid176(b *testing.B) {
	shared := sharedtest.Dir(b)
	m, err := Load(filepath.Join(shared, "models", "lid.176.ftz"))
	if err != nil {
		b.Skip("lid.176.ftz not available: ", err)
	}
	var lines [][]byte
	for _, pat := range []string{"data/l10n/test/test.*", "data/flores200-devtest/*.devtest"} {
		files, _ := filepath.Glob(filepath.Join(shared, pat))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			lines = append(lines, bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))...)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l := lines[i%len(lines)]
		m.PredictBytes(l, true, 1, 0)
	}
}

// BenchmarkStreamLid176 measures the parallel stream used by the CLI.
func BenchmarkStreamLid176(b *testing.B) {
	shared := sharedtest.Dir(b)
	m, err := Load(filepath.Join(shared, "models", "lid.176.ftz"))
	if err != nil {
		b.Skip("lid.176.ftz not available: ", err)
	}
	data, err := os.ReadFile(filepath.Join(shared, "data", "flores200-devtest", "eng_Latn.devtest"))
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if err := Stream(m, bytes.NewReader(data), io.Discard, StreamOptions{K: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
