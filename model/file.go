package model

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// fileMeta is the JSON header of a model file (see engine's tensor file
// format): the architecture plus anything the caller adds.
type fileMeta struct {
	Kind   string         `json:"kind"`
	Config Config         `json:"config"`
	Extra  map[string]any `json:"extra,omitempty"`
}

// ModelKind marks model files (the "kind" in a tensor file's header).
const ModelKind = "strata-model"

// CheckpointKind marks training checkpoints; Load accepts them too and
// ignores their optimiser tensors.
const CheckpointKind = "strata-checkpoint"

// Save writes the model (config and parameters) atomically.
func Save(path string, m Model, extra map[string]any) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		return WriteTo(w, m, extra)
	})
}

// WriteTo writes the model to w.
func WriteTo(w io.Writer, m Model, extra map[string]any) error {
	return engine.WriteTensors(w, fileMeta{Kind: ModelKind, Config: m.Config(), Extra: extra}, m.Params().List())
}

// Load reads a model file written by Save.
func Load(path string) (Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Read reads a model written by WriteTo (or a training checkpoint).
func Read(r io.Reader) (Model, error) {
	var meta fileMeta
	ts, err := engine.ReadTensors(r, &meta)
	if err != nil {
		return nil, err
	}
	if meta.Kind != ModelKind && meta.Kind != CheckpointKind {
		return nil, fmt.Errorf("not a strata model (kind %q)", meta.Kind)
	}
	ts = withoutOptimizer(ts)
	if err := meta.Config.Validate(); err != nil {
		return nil, err
	}
	if err := fitsFile(meta.Config, ts); err != nil {
		return nil, err
	}
	m, err := New(meta.Config, 0)
	if err != nil {
		return nil, err
	}
	if err := SetParams(m, ts); err != nil {
		return nil, err
	}
	return m, nil
}

// fitsFile checks, before the model is built, that the parameters its
// configuration asks for can be among the values the file holds: the
// configuration comes from the file, and building the model allocates what
// it says. minParams is a lower bound for every architecture, and each
// architecture's total is a small multiple of it (biases and norms are a
// few d per layer), so a file can make Read allocate at most a few times
// its own size.
func fitsFile(c Config, ts []*engine.Tensor) error {
	var have float64
	for _, t := range ts {
		have += float64(t.Size())
	}
	if need := minParams(c); need > have {
		return fmt.Errorf("the configuration needs at least %.4g parameters, the file holds %.0f values", need, have)
	}
	return nil
}

// minParams counts the weight matrices every layer has (attention 4d²,
// feed-forward 2·d·ffn), the embeddings, and the layer-history weights of
// dlcl and transparent attention, in float64 so nothing overflows.
func minParams(c Config) float64 {
	d, ffn := float64(c.DModel), float64(c.FFN)
	enc, dec := float64(c.EncoderLayers), float64(c.DecoderLayers)
	n := (enc+dec)*(4*d*d+2*d*ffn) + float64(c.SrcVocab)*d
	if !c.ShareAllEmbeddings {
		n += float64(c.TgtVocab) * d
	}
	switch c.Arch {
	case "dlcl":
		n += (enc + 1) * (enc + 1)
		if c.Deep.DLCLDecoder {
			n += (dec + 1) * (dec + 1)
		}
	case "transparent":
		n += dec * (enc + 1)
	}
	return n
}

// SetParams copies tensors into the model's parameters by name; every
// parameter must be present with the same shape.
func SetParams(m Model, ts []*engine.Tensor) error {
	byName := map[string]*engine.Tensor{}
	for _, t := range ts {
		byName[t.Name] = t
	}
	for _, p := range m.Params().List() {
		t, ok := byName[p.Name]
		if !ok {
			return fmt.Errorf("parameter %s missing (file is from another architecture?)", p.Name)
		}
		if fmt.Sprint(t.Shape()) != fmt.Sprint(p.Shape()) {
			return fmt.Errorf("parameter %s has shape %v in the file, model expects %v", p.Name, t.Shape(), p.Shape())
		}
		copy(p.Data, t.Data)
		delete(byName, p.Name)
	}
	for name := range byName {
		return fmt.Errorf("file has parameter %s that this model lacks (another architecture?)", name)
	}
	return nil
}

// FileParameterCount is the number of model parameters in the model file
// or checkpoint at path (a checkpoint's optimiser state not counted),
// from the file's header: what Params().Count() gives for the model the
// file loads into (Read accepts only a file that holds every parameter in
// its shape), without building the model or reading its weights.
func FileParameterCount(path string) (int, error) {
	es, err := engine.FileTensors(path)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range es {
		if strings.HasPrefix(e.Name, optimizerPrefix) {
			continue
		}
		size := 1
		for _, d := range e.Shape {
			size *= d
		}
		n += size
	}
	return n, nil
}

// optimizerPrefix begins the names of a checkpoint's optimiser tensors.
const optimizerPrefix = "optimizer."

// withoutOptimizer drops a checkpoint's optimiser state.
func withoutOptimizer(ts []*engine.Tensor) []*engine.Tensor {
	out := ts[:0:0]
	for _, t := range ts {
		if !strings.HasPrefix(t.Name, optimizerPrefix) {
			out = append(out, t)
		}
	}
	return out
}
