package decode

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/subword"
	"github.com/strata-nmt/strata/train"
)

// Bundle is what translation needs: a model and the vocabulary and tag
// scheme of the data it was trained on.
type Bundle struct {
	Model     model.Model
	Vocab     *data.Vocab
	Seq       data.Sequencer
	ModelPath string
	DataDir   string
}

// ModelFile is the name of an exported model in a run directory.
const ModelFile = "model.bin"

// Load opens a model given as a file or a run directory (model.bin, else
// checkpoint_best.bin, else checkpoint_last.bin) and the vocabulary of
// dataDir, or, when dataDir is empty, of the data directory recorded in
// the run's run.json.
func Load(modelPath, dataDir string) (*Bundle, error) {
	path, runDir, err := resolveModel(modelPath)
	if err != nil {
		return nil, err
	}
	if dataDir == "" {
		info, err := train.ReadRunInfo(runDir)
		if err != nil {
			return nil, fmt.Errorf("no --data given and %w", err)
		}
		dataDir = info.DataDir
	}
	v, seq, err := OpenVocab(dataDir)
	if err != nil {
		return nil, err
	}
	m, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	if c := m.Config(); c.SrcVocab != v.Size() || c.TgtVocab != v.Size() {
		return nil, fmt.Errorf("%s has vocabularies of %d/%d tokens but %s has %d: model and data directory do not belong together",
			path, c.SrcVocab, c.TgtVocab, dataDir, v.Size())
	}
	return &Bundle{Model: m, Vocab: v, Seq: seq, ModelPath: path, DataDir: dataDir}, nil
}

// ModelPath is the model file Load would read for a file or run directory.
func ModelPath(p string) (string, error) {
	path, _, err := resolveModel(p)
	return path, err
}

func resolveModel(p string) (path, runDir string, err error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", "", fmt.Errorf("model: %w", err)
	}
	if !st.IsDir() {
		return p, filepath.Dir(p), nil
	}
	if _, err := os.Stat(filepath.Join(p, ModelFile)); err == nil {
		return filepath.Join(p, ModelFile), p, nil
	}
	best, err := train.BestModelPath(p)
	if err != nil {
		return "", "", fmt.Errorf("%s holds no %s: %w", p, ModelFile, err)
	}
	return best, p, nil
}

// OpenVocab reads only the vocabulary and tag scheme of a prepared data
// directory (data.Open would also load every corpus, which translation
// does not need).
func OpenVocab(dir string) (*data.Vocab, data.Sequencer, error) {
	man, err := data.ReadManifest(dir)
	if err != nil {
		return nil, data.Sequencer{}, err
	}
	sw, err := subword.Load(filepath.Join(dir, data.ModelFile))
	if err != nil {
		return nil, data.Sequencer{}, err
	}
	style := data.TagStyle(man.TagStyle)
	if style == "" {
		style = data.TagAngle
	}
	v, err := data.NewVocab(sw, man.Languages, style)
	if err != nil {
		return nil, data.Sequencer{}, fmt.Errorf("%s: %w", dir, err)
	}
	if v.Size() != man.VocabSize {
		return nil, data.Sequencer{}, fmt.Errorf("%s: vocabulary has %d tokens, the manifest says %d", dir, v.Size(), man.VocabSize)
	}
	scheme, err := data.ParseTagScheme(man.TagScheme)
	if err != nil {
		return nil, data.Sequencer{}, fmt.Errorf("%s: %w", dir, err)
	}
	return v, data.Sequencer{Scheme: scheme, TagInLoss: man.TagInLoss, Vocab: v}, nil
}
