package data

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// ManifestFile is written last by Prepare: a data directory without it is
// incomplete, whatever else it holds.
const ManifestFile = "manifest.json"

// Names of the other files of a data directory.
const (
	ModelFile = "bpe.json"
	VocabFile = "vocab.txt"
)

const manifestFormat, manifestVersion = "strata-data", 1

// Manifest records how a data directory was made and what it holds.
type Manifest struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Key hashes the resolved config and the inputs' checksums: a rerun
	// with the same key has nothing to do.
	Key          string   `json:"key"`
	Languages    []string `json:"languages"`
	TagScheme    string   `json:"tag_scheme"`
	TagStyle     string   `json:"tag_style"`
	TagInLoss    bool     `json:"tag_in_loss"`
	DecoderStart string   `json:"decoder_start"`
	VocabSize    int      `json:"vocab_size"`
	// VocabHash is Vocab.Hash of the vocabulary written (empty in data
	// directories prepared before it was recorded).
	VocabHash string                `json:"vocab_hash,omitempty"`
	MaxLen    int                   `json:"max_len"`
	Inputs    []FileSum             `json:"inputs"`
	Outputs   []FileSum             `json:"outputs"`
	Splits    map[string][]PartInfo `json:"splits"`
	Report    Report                `json:"report"`
	Config    *Config               `json:"config"`
}

// FileSum identifies a file by size and SHA-256.
type FileSum struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// PartInfo is one direction of one corpus within a split.
type PartInfo struct {
	Corpus   string `json:"corpus"` // file name in the data directory
	SrcLang  string `json:"src_lang"`
	TgtLang  string `json:"tgt_lang"`
	Reversed bool   `json:"reversed"` // source is the corpus's second column
	Pairs    int    `json:"pairs"`
}

func sumFile(path string) (FileSum, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileSum{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return FileSum{}, fmt.Errorf("%s: %w", path, err)
	}
	return FileSum{Path: path, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// ReadManifest reads the manifest of a data directory.
func ReadManifest(dir string) (*Manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s is not a prepared data directory (no %s; run strata prepare, or it was interrupted)", dir, ManifestFile)
		}
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if m.Format != manifestFormat || m.Version != manifestVersion {
		return nil, fmt.Errorf("%s: format %q version %d, want %q version %d", filepath.Join(dir, ManifestFile), m.Format, m.Version, manifestFormat, manifestVersion)
	}
	if err := m.checkPaths(); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

// checkPaths refuses file names that leave the data directory: a data
// directory may come from elsewhere, and Open reads and stats what its
// manifest names.
func (m *Manifest) checkPaths() error {
	for _, o := range m.Outputs {
		if !filepath.IsLocal(o.Path) {
			return fmt.Errorf("output %q is outside the data directory", o.Path)
		}
	}
	for name, parts := range m.Splits {
		for _, p := range parts {
			if !filepath.IsLocal(p.Corpus) {
				return fmt.Errorf("split %s: corpus %q is outside the data directory", name, p.Corpus)
			}
		}
	}
	return nil
}

func (m *Manifest) write(dir string) error {
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, ManifestFile), append(raw, '\n'))
}

// checkOutputs verifies that every output exists with its recorded size and,
// if full, checksum.
func (m *Manifest) checkOutputs(dir string, full bool) error {
	for _, o := range m.Outputs {
		p := filepath.Join(dir, o.Path)
		if !full {
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			if st.Size() != o.Size {
				return fmt.Errorf("%s: %d bytes, the manifest says %d", p, st.Size(), o.Size)
			}
			continue
		}
		s, err := sumFile(p)
		if err != nil {
			return err
		}
		if s.Size != o.Size || s.SHA256 != o.SHA256 {
			return fmt.Errorf("%s: checksum differs from the manifest", p)
		}
	}
	return nil
}

// CheckVocab checks that v, rebuilt from dir's subword model and language
// list, is the vocabulary the manifest recorded: its size and, when the
// manifest has one, its content hash.
func (m *Manifest) CheckVocab(dir string, v *Vocab) error {
	if v.Size() != m.VocabSize {
		return fmt.Errorf("%s: vocabulary has %d tokens, the manifest says %d", dir, v.Size(), m.VocabSize)
	}
	if m.VocabHash != "" && v.Hash() != m.VocabHash {
		return fmt.Errorf("%s: vocabulary hash is %s, the manifest says %s (%s was changed after strata prepare?)", dir, v.Hash(), m.VocabHash, ModelFile)
	}
	return nil
}
