package data

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A manifest names its corpus and output files; names that leave the data
// directory ("../x.bin", absolute paths) are refused, so a data directory
// from elsewhere cannot make Open read or stat files outside it.
func TestOpenRefusesPathsOutsideTheDirectory(t *testing.T) {
	dir := preparedDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	name := m.Splits["train"][0].Corpus
	outside := filepath.Join(filepath.Dir(dir), name)
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, b, 0o644); err != nil {
		t.Fatal(err)
	}
	edits := map[string]func(*Manifest){
		"corpus ../": func(m *Manifest) {
			for _, parts := range m.Splits {
				for i := range parts {
					if parts[i].Corpus == name {
						parts[i].Corpus = "../" + name
					}
				}
			}
		},
		"corpus absolute": func(m *Manifest) { m.Splits["train"][0].Corpus = outside },
		"output ../":      func(m *Manifest) { m.Outputs[0].Path = "../" + name },
	}
	for what, edit := range edits {
		t.Run(what, func(t *testing.T) {
			var mm Manifest
			json.Unmarshal(raw, &mm)
			edit(&mm)
			if err := mm.write(dir); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir)
			if err == nil || !strings.Contains(err.Error(), "outside") {
				t.Fatalf("got %v, want an error about a path outside the directory", err)
			}
		})
	}
}
