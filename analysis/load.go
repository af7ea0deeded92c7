package analysis

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/subword"
	"github.com/strata-nmt/strata/train"
)

// System is a trained model with the vocabulary and tag scheme of the data
// it was trained on.
type System struct {
	Path  string // model file
	Model model.Model
	Seq   data.Sequencer
}

// LoadSystem loads a model. path is a run directory (its best checkpoint
// and the data directory of its run.json are used) or a model file, for
// which dataDir must name the prepared data directory. A non-empty dataDir
// always wins over run.json.
func LoadSystem(path, dataDir string) (*System, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	file := path
	if st.IsDir() {
		if file, err = train.BestModelPath(path); err != nil {
			return nil, err
		}
		if dataDir == "" {
			info, err := train.ReadRunInfo(path)
			if err != nil {
				return nil, err
			}
			dataDir = info.DataDir
		}
	}
	if dataDir == "" {
		return nil, fmt.Errorf("%s is a model file: give the data directory it was trained on (--data)", path)
	}
	seq, err := LoadSequencer(dataDir)
	if err != nil {
		return nil, err
	}
	m, err := model.Load(file)
	if err != nil {
		return nil, err
	}
	if c := m.Config(); c.SrcVocab != seq.Vocab.Size() || c.TgtVocab != seq.Vocab.Size() {
		return nil, fmt.Errorf("%s has vocabularies of %d/%d tokens but %s has %d: not the data it was trained on",
			file, c.SrcVocab, c.TgtVocab, dataDir, seq.Vocab.Size())
	}
	return &System{Path: file, Model: m, Seq: seq}, nil
}

// LoadSequencer reads the vocabulary and tag scheme of a prepared data
// directory without loading its corpora (data.Open would read the whole
// training set).
func LoadSequencer(dir string) (data.Sequencer, error) {
	var seq data.Sequencer
	m, err := data.ReadManifest(dir)
	if err != nil {
		return seq, err
	}
	sw, err := subword.Load(filepath.Join(dir, data.ModelFile))
	if err != nil {
		return seq, err
	}
	v, err := data.NewVocab(sw, m.Languages, data.TagStyle(m.TagStyle))
	if err != nil {
		return seq, fmt.Errorf("%s: %w", dir, err)
	}
	if v.Size() != m.VocabSize {
		return seq, fmt.Errorf("%s: vocabulary has %d tokens, the manifest says %d", dir, v.Size(), m.VocabSize)
	}
	scheme, err := data.ParseTagScheme(m.TagScheme)
	if err != nil {
		return seq, fmt.Errorf("%s: %w", dir, err)
	}
	return data.Sequencer{Scheme: scheme, TagInLoss: m.TagInLoss, Vocab: v}, nil
}
