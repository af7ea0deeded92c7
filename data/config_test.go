package data

import (
	"path/filepath"
	"testing"
)

// A config with no YAML document (empty, or comments only) is refused
// saying what a config holds, not with the parser's bare "EOF".
func TestLoadConfigWithoutDocument(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"empty.yaml": "", "comments.yaml": "# nothing yet\n\n"} {
		path := filepath.Join(dir, name)
		writeFile(t, path, text)
		_, err := LoadConfig(path)
		wantErr(t, err, name, "no YAML document", "languages, bpe and splits")
	}
}

// A config without the subword model's size says how to give one; one
// with both sizes says to keep one.
func TestLoadConfigBPESize(t *testing.T) {
	dir := t.TempDir()
	splits := "splits:\n  train:\n    - {pair: en-de, path: t.tsv}\n"
	for name, c := range map[string]struct{ text, want string }{
		"none.yaml": {splits, `"bpe: {merges: 10000}"`},
		"both.yaml": {"bpe: {merges: 10, vocab_size: 80}\n" + splits, "not both"},
	} {
		path := filepath.Join(dir, name)
		writeFile(t, path, c.text)
		_, err := LoadConfig(path)
		wantErr(t, err, name, "bpe: ", c.want)
	}
}
