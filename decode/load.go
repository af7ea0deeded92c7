package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
	"github.com/strata-nmt/strata/subword"
)

// Bundle is what translation needs: a model (or an ensemble) and the
// vocabulary and tag scheme of the data it was trained on.
type Bundle struct {
	Model     model.Model
	Vocab     *data.Vocab
	Seq       data.Sequencer
	ModelPath string
	DataDir   string
	// Models holds every model loaded, Model first: more than one makes
	// an ensemble (LoadEnsemble).
	Models     []model.Model
	ModelPaths []string
	// Directions are the directions the model was trained on (unknown,
	// allowing every direction, when neither run.json nor the data
	// directory's manifest records them): it translates from their
	// sources into their targets only.
	Directions data.Directions

	// held is the format the models' projection weights are held in for
	// searchers: FormatAuto while their float32 values are kept (as
	// loaded, with an int8 form where the file stored one), the product
	// format a searcher released them for after that (computeIn).
	mu   sync.Mutex
	held engine.Format
}

// Searcher prepares a searcher over the bundle's model or ensemble. The
// float32 weights its products do not use are released.
func (b *Bundle) Searcher(opt Options) (*Searcher, error) {
	opt, err := b.searchOptions(opt)
	if err != nil {
		return nil, err
	}
	// options that do not validate release nothing
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if err := b.computeIn(opt.Compute().Products); err != nil {
		return nil, err
	}
	return NewEnsembleSearcher(b.members(), opt)
}

// ProbeSearcher is Searcher over the bundle's first model, keeping its
// float32 weights whatever the compute type: analyze llr reads hidden
// states of the float32 model beside the searcher's translations.
func (b *Bundle) ProbeSearcher(opt Options) (*Searcher, error) {
	opt, err := b.searchOptions(opt)
	if err != nil {
		return nil, err
	}
	return NewSearcher(b.Model, opt)
}

// searchOptions checks the shortlist against the bundle's data directory
// and fills in the compute type of the model files when none is asked.
func (b *Bundle) searchOptions(opt Options) (Options, error) {
	if err := b.checkShortlist(opt); err != nil {
		return opt, err
	}
	if opt.ComputeType == "" {
		ct, err := b.DefaultComputeType()
		if err != nil {
			return opt, err
		}
		opt.ComputeType = ct
	}
	return opt, nil
}

// DefaultComputeType is the compute type of searchers asked for none: int8
// when every model file is an int8 one (strata quantize), float32
// otherwise. So a quantized model decodes as quantized unless told to
// dequantize, as CTranslate2's "default" keeps a converted model's type:
// decoding it in float32 would be slower and not use the integers the user
// quantized to.
func (b *Bundle) DefaultComputeType() (string, error) {
	file := engine.FormatAuto // put together by hand: no files to ask
	for i, p := range b.ModelPaths {
		f, err := engine.FileFormat(p)
		if err != nil {
			return "", err
		}
		if i == 0 || f != engine.FormatInt8 {
			file = f // int8 only when every member is
		}
	}
	return engine.ResolveComputeType(engine.ComputeType{}, file).Products.String(), nil
}

// computeIn readies the bundle's models for searchers whose products run
// in format products. The first int8 searcher releases the float32
// values of every projection (model.ReleaseFloat32): decoding in int8
// then holds each weight once, as int8, which is most of the memory an
// int8 server or translate run saves. Searchers in another format cannot
// be made afterwards: the values they would multiply with are gone.
func (b *Bundle) computeIn(products engine.Format) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.held != engine.FormatAuto && b.held != products:
		return fmt.Errorf("decode: %s decodes in %s only (its float32 weights were released for an %s searcher): load it again to decode in %s", b.Name(), b.held, b.held, products)
	case b.held == engine.FormatAuto && products == engine.FormatInt8:
		for _, m := range b.members() {
			model.ReleaseFloat32(m)
		}
		b.held = products
	}
	return nil
}

// members are the bundle's models: Models, or Model alone in a bundle put
// together by hand.
func (b *Bundle) members() []model.Model {
	if len(b.Models) == 0 {
		return []model.Model{b.Model}
	}
	return b.Models
}

// Name names the model, or the ensemble's models joined by " + ".
func (b *Bundle) Name() string {
	if len(b.ModelPaths) > 1 {
		return strings.Join(b.ModelPaths, " + ")
	}
	return b.ModelPath
}

// Load opens a model given as a file or a run directory (model.bin, else
// checkpoint_best.bin, else checkpoint_last.bin) and the vocabulary of
// dataDir, or, when dataDir is empty, of the data directory recorded in
// the run's run.json.
func Load(modelPath, dataDir string) (*Bundle, error) {
	path, runDir, err := rundir.ResolveModel(modelPath)
	if err != nil {
		return nil, err
	}
	info, infoErr := rundir.ReadInfo(runDir)
	if dataDir == "" {
		if infoErr != nil {
			return nil, fmt.Errorf("no --data given and %w", infoErr)
		}
		dataDir = info.DataDir
	}
	v, seq, err := OpenVocab(dataDir)
	if err != nil {
		return nil, err
	}
	dirs, err := trainedDirections(info, runDir, dataDir)
	if err != nil {
		return nil, err
	}
	m, err := loadFor(path, v, dataDir)
	if err != nil {
		return nil, err
	}
	return &Bundle{Model: m, Vocab: v, Seq: seq, ModelPath: path, DataDir: dataDir,
		Models: []model.Model{m}, ModelPaths: []string{path}, Directions: dirs}, nil
}

// trainedDirections are the directions run.json records, else those of
// the train split of the data directory's manifest: runs written before
// run.json recorded them were trained on that split.
func trainedDirections(info rundir.Info, runDir, dataDir string) (data.Directions, error) {
	if len(info.TrainedDirections) > 0 {
		d, err := data.ParseDirections(info.TrainedDirections)
		if err != nil {
			return d, fmt.Errorf("%s: %w", filepath.Join(runDir, rundir.InfoFile), err)
		}
		return d, nil
	}
	man, err := data.ReadManifest(dataDir)
	if err != nil {
		return data.Directions{}, err
	}
	return man.TrainDirections("train"), nil
}

// loadFor loads a model file and checks that it fits vocabulary v.
func loadFor(path string, v *data.Vocab, dataDir string) (model.Model, error) {
	m, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	if err := CheckVocab(path, m.Config(), dataDir, v); err != nil {
		return nil, err
	}
	// a bundle's model only decodes: its gradient buffers would double
	// the weights' memory
	m.Params().DropGrads()
	return m, nil
}

// LoadEnsemble loads several models (files or run directories, as Load
// takes them) to decode as an ensemble, with the vocabulary of dataDir or,
// when empty, of the first model's run. A further model whose run was
// trained on another data directory must have the same vocabulary and tag
// scheme: its token ids mean the same only then.
func LoadEnsemble(paths []string, dataDir string) (*Bundle, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no model given (--model)")
	}
	b, err := Load(paths[0], dataDir)
	if err != nil {
		return nil, err
	}
	for _, p := range paths[1:] {
		path, runDir, err := rundir.ResolveModel(p)
		if err != nil {
			return nil, err
		}
		if info, err := rundir.ReadInfo(runDir); err == nil && info.DataDir != b.DataDir {
			if err := sameVocab(b, info.DataDir); err != nil {
				return nil, fmt.Errorf("ensemble member %s: %w", p, err)
			}
		}
		m, err := loadFor(path, b.Vocab, b.DataDir)
		if err != nil {
			return nil, err
		}
		b.Models, b.ModelPaths = append(b.Models, m), append(b.ModelPaths, path)
	}
	return b, nil
}

// sameVocab checks that data directory dir has b's vocabulary (every
// token, in order) and tag scheme.
func sameVocab(b *Bundle, dir string) error {
	v, seq, err := OpenVocab(dir)
	if err != nil {
		return err
	}
	if seq.Scheme != b.Seq.Scheme {
		return fmt.Errorf("trained with tag scheme %s on %s, the ensemble decodes with %s of %s", seq.Scheme, dir, b.Seq.Scheme, b.DataDir)
	}
	if v.Size() != b.Vocab.Size() {
		return fmt.Errorf("trained on %s, whose vocabulary has %d tokens, not the %d of %s", dir, v.Size(), b.Vocab.Size(), b.DataDir)
	}
	for id := int32(0); int(id) < v.Size(); id++ {
		if v.Token(id) != b.Vocab.Token(id) {
			return fmt.Errorf("trained on %s, whose token %d is %q where %s has %q", dir, id, v.Token(id), b.DataDir, b.Vocab.Token(id))
		}
	}
	return nil
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
	if err := man.CheckVocab(dir, v); err != nil {
		return nil, data.Sequencer{}, err
	}
	scheme, err := data.ParseTagScheme(man.TagScheme)
	if err != nil {
		return nil, data.Sequencer{}, fmt.Errorf("%s: %w", dir, err)
	}
	return v, data.Sequencer{Scheme: scheme, TagInLoss: man.TagInLoss, Vocab: v}, nil
}

// CheckVocab reports whether the model at path (config c) was built for
// vocabulary v of data directory dataDir: same size and, when the model
// recorded one, same content hash.
func CheckVocab(path string, c model.Config, dataDir string, v *data.Vocab) error {
	if c.SrcVocab != v.Size() || c.TgtVocab != v.Size() {
		return fmt.Errorf("%s has vocabularies of %d/%d tokens but %s has %d: model and data directory do not belong together",
			path, c.SrcVocab, c.TgtVocab, dataDir, v.Size())
	}
	if c.VocabHash != "" && c.VocabHash != v.Hash() {
		return fmt.Errorf("%s was trained on vocabulary %s but %s has vocabulary %s (same size, other tokens): model and data directory do not belong together",
			path, c.VocabHash, dataDir, v.Hash())
	}
	return nil
}
