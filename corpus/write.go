package corpus

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Manifest format.
const (
	ManifestFormat  = "strata-l10n-corpus"
	ManifestVersion = 1
	ManifestFile    = "manifest.json"
)

// Manifest records a build: the packages read (so a later build can pin
// them), the outputs with their sums, and the report.
type Manifest struct {
	Format    string    `json:"format"`
	Version   int       `json:"version"`
	Languages []string  `json:"languages"`
	Packages  []Package `json:"packages"`
	// Missing lists wanted packages the archive does not have.
	Missing []string `json:"missing,omitempty"`
	// HeldOut is "reference" (dev/test reused) or "split".
	HeldOut string         `json:"held_out"`
	Outputs []FileSum      `json:"outputs"`
	Skipped map[string]int `json:"skipped,omitempty"`
	Report  []LangReport   `json:"report"`
	Seconds float64        `json:"seconds"`
}

// ReadManifest reads a manifest to pin a build to.
func ReadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Format != ManifestFormat || m.Version != ManifestVersion {
		return nil, fmt.Errorf("%s: format %q version %d, want %q version %d", path, m.Format, m.Version, ManifestFormat, ManifestVersion)
	}
	for i, p := range m.Packages {
		if p.Name == "" || p.Version == "" || len(p.SHA256) != 64 {
			return nil, fmt.Errorf("%s: package %d: want name, version and a 64-digit sha256", path, i)
		}
	}
	return &m, nil
}

func (m *Manifest) write(dir string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, ManifestFile), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

// writeAtomic writes path through a temporary file, synced and renamed.
func writeAtomic(path string, fill func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func sumOf(dir, rel string) (FileSum, error) {
	s, n, err := hashFile(filepath.Join(dir, rel))
	return FileSum{Path: filepath.ToSlash(rel), Size: n, SHA256: s}, err
}

// writeTrain writes train/en-LANG.tsv.gz.
func writeTrain(dir, lang string, pairs []Pair) (FileSum, error) {
	rel := filepath.Join("train", "en-"+lang+".tsv.gz")
	err := writeAtomic(filepath.Join(dir, rel), func(w io.Writer) error {
		z := gzip.NewWriter(w)
		for _, p := range pairs {
			if _, err := fmt.Fprintf(z, "%s\t%s\n", p.En, p.Tgt); err != nil {
				return err
			}
		}
		return z.Close()
	})
	if err != nil {
		return FileSum{}, err
	}
	return sumOf(dir, rel)
}

// writeHeldOut writes dev/dev.LANG and test/test.LANG.
func writeHeldOut(dir string, langs []string, h *HeldOut) ([]FileSum, error) {
	var sums []FileSum
	for _, split := range []string{"dev", "test"} {
		set := map[string]map[string][]string{"dev": h.Dev, "test": h.Test}[split]
		for _, l := range langs {
			rel := filepath.Join(split, split+"."+l)
			err := writeAtomic(filepath.Join(dir, rel), func(w io.Writer) error {
				_, err := io.WriteString(w, strings.Join(set[l], "\n")+"\n")
				return err
			})
			if err != nil {
				return nil, err
			}
			s, err := sumOf(dir, rel)
			if err != nil {
				return nil, err
			}
			sums = append(sums, s)
		}
	}
	return sums, nil
}

// checkNoLeak rereads a written training file and counts pairs sharing a
// string with the held-out sets; any is an error, as a check on the
// writer rather than trust in the filter.
func checkNoLeak(path string, heldEn, heldL map[string]bool, leaked *int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		en, tgt, _ := strings.Cut(sc.Text(), "\t")
		if heldEn[Key(en)] || heldL[Key(tgt)] {
			*leaked++
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if *leaked > 0 {
		return fmt.Errorf("%s: %d training pairs share a string with dev or test", path, *leaked)
	}
	return nil
}
