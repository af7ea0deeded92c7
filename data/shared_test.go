package data

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
)

// TestShippedConfigs loads every config in configs/ and checks that each
// corpus it names exists in ../shared.
func TestShippedConfigs(t *testing.T) {
	sharedtest.Path(t, "data/l10n")
	paths, _ := filepath.Glob(filepath.Join(sharedtest.Root(t), "configs", "*.yaml"))
	if len(paths) < 3 {
		t.Fatalf("configs: %v", paths)
	}
	for _, p := range paths {
		c, err := LoadConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, specs := range c.Splits {
			for _, s := range specs {
				for _, f := range []string{s.Path, s.Src, s.Tgt} {
					if f == "" {
						continue
					}
					if _, err := os.Stat(f); err != nil {
						t.Errorf("%s split %s: %v", filepath.Base(p), name, err)
					}
				}
			}
		}
	}
	c, _ := LoadConfig(filepath.Join(sharedtest.Root(t), "configs", "l10n-multi.yaml"))
	if n := len(c.Splits["train"]); n != 9 || len(c.Languages) != 10 {
		t.Fatalf("l10n-multi: %d train corpora, %d languages", n, len(c.Languages))
	}
}

func TestReadRealTSV(t *testing.T) {
	d := sharedtest.Path(t, "data/l10n")
	c, err := ReadTSV(filepath.Join(d, "train", "en-ro.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Src) != len(c.Tgt) || len(c.Src) < 60000 {
		t.Fatalf("en-ro: %d pairs", len(c.Src))
	}
}
