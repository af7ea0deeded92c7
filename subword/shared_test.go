package subword

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
)

// TestLosslessOnDevSets learns a small model on the n-way l10n dev sets (ten
// languages, Chinese and Arabic included) and checks that every test-set
// line decodes back to itself.
func TestLosslessOnDevSets(t *testing.T) {
	d := sharedtest.Path(t, "data/l10n")
	langs := []string{"en", "de", "fr", "nl", "ru", "zh", "ar", "it", "ro", "es"}
	wc := NewWordCounts()
	var test []string
	for _, l := range langs {
		dev, err := os.ReadFile(filepath.Join(d, "dev", "dev."+l))
		if err != nil {
			t.Fatal(err)
		}
		wc.AddLines(strings.Split(strings.TrimSuffix(string(dev), "\n"), "\n"), 2)
		tst, err := os.ReadFile(filepath.Join(d, "test", "test."+l))
		if err != nil {
			t.Fatal(err)
		}
		test = append(test, strings.Split(strings.TrimSuffix(string(tst), "\n"), "\n")...)
	}
	m, _, err := Learn(wc, Options{NumMerges: 2000, CharacterCoverage: 0.9995})
	if err != nil {
		t.Fatal(err)
	}
	out, st := m.EncodeLines(test, 2, nil)
	for i, ids := range out {
		if got := m.Decode(ids); got != test[i] {
			t.Fatalf("line %d: %q decodes to %q", i, test[i], got)
		}
	}
	// Characters unseen in dev (or beyond the coverage) fall back, and are
	// counted.
	if st.Fallbacks == 0 {
		t.Fatal("no fallback counted on unseen test text")
	}
	t.Logf("%d lines, %d pieces, %d fallback characters", st.Lines, st.Pieces, st.Fallbacks)
}
