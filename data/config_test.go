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
