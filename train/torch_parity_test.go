package train

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// paritySpec is what bench/reference/strata_parity.py reads.
type paritySpec struct {
	Config struct {
		Vocab  int `json:"vocab"`
		Dim    int `json:"dim"`
		FFN    int `json:"ffn"`
		Heads  int `json:"heads"`
		Layers int `json:"layers"`
	} `json:"config"`
	Norm           string               `json:"norm"`
	Pad            int32                `json:"pad"`
	LabelSmoothing float32              `json:"label_smoothing"`
	Optim          map[string]float64   `json:"optim"`
	Params         map[string][]float32 `json:"params"`
	Batches        []parityBatch        `json:"batches"`
}

type parityBatch struct {
	Src    []int32 `json:"src"`
	TgtIn  []int32 `json:"tgt_in"`
	TgtOut []int32 `json:"tgt_out"`
	B      int     `json:"B"`
	S      int     `json:"S"`
	T      int     `json:"T"`
}

type parityResult struct {
	FirstGrad map[string][]float32 `json:"first_grad"`
	Losses    []float64            `json:"losses"`
	Final     map[string][]float32 `json:"final"`
}

// TestTrainingMatchesPyTorch trains a small Transformer for 30 updates in
// strata and, from the same initial weights on the same batches, in the
// PyTorch reference model (bench/reference/strata_parity.py), for post-norm
// and pre-norm, and compares the first gradient, every update's loss and
// the final weights. It checks the model, the loss, Adam and the schedule
// together against an independent implementation of fairseq's recipe. It
// skips where /usr/bin/python3 cannot import torch (apt-get install
// python3-torch).
func TestTrainingMatchesPyTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import torch").Run(); err != nil {
		t.Skipf("%s cannot import torch (apt-get install python3-torch): parity with the PyTorch reference not checked", py)
	}
	for _, norm := range []model.Norm{model.NormPost, model.NormPre} {
		t.Run(string(norm), func(t *testing.T) { checkTorchParity(t, py, norm) })
	}
}

func checkTorchParity(t *testing.T, py string, norm model.Norm) {
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	cfg.EncoderLayers, cfg.DecoderLayers, cfg.DModel, cfg.FFN, cfg.Heads = 2, 2, 32, 64, 4
	cfg.EncoderNorm, cfg.DecoderNorm = norm, norm
	cfg.Dropout, cfg.AttentionDropout, cfg.ActivationDropout = 0, 0, 0
	cfg.SrcVocab, cfg.TgtVocab = 40, 40
	m, err := model.New(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Copy task with varying lengths, so batches carry padding.
	src := Synthetic{Seed: 5, Symbols: 30, First: 4, MinLen: 2, MaxLen: 9, BatchSize: 6, Count: 30,
		EOS: 2, BOS: 2, Pad: int32(cfg.PadID)}
	opts := Defaults()
	opts.Model, opts.SaveDir, opts.MaxUpdate, opts.Threads = cfg, t.TempDir(), 30, 1
	if norm == model.NormPre {
		// the pre-norm run splits each batch over two workers (batch
		// shards of 3 sentences): the update PyTorch makes from the whole
		opts.Workers = 2
	}
	opts.LR, opts.WarmupUpdates = 3e-3, 8 // a steep schedule: large steps expose differences

	spec := paritySpec{Norm: string(norm), Pad: int32(cfg.PadID), LabelSmoothing: opts.LabelSmoothing,
		Params: map[string][]float32{}, Optim: map[string]float64{"lr": opts.LR, "warmup": float64(opts.WarmupUpdates),
			"warmup_init": opts.WarmupInitLR, "beta1": opts.Adam.Beta1, "beta2": opts.Adam.Beta2, "eps": opts.Adam.Eps}}
	spec.Config.Vocab, spec.Config.Dim, spec.Config.FFN, spec.Config.Heads, spec.Config.Layers = cfg.SrcVocab, cfg.DModel, cfg.FFN, cfg.Heads, cfg.EncoderLayers
	for _, p := range m.Params().List() {
		spec.Params[p.Name] = append([]float32(nil), p.Data...)
	}
	n, batch := src.Epoch(1)
	for i := 0; i < n; i++ {
		b := batch(i)
		spec.Batches = append(spec.Batches, parityBatch{Src: b.Src, TgtIn: b.TgtIn, TgtOut: b.TgtOut, B: b.B, S: b.S, T: b.T})
	}
	firstGrad := gradientOf(m, batch(0), opts.LabelSmoothing)

	res, err := RunModel(context.Background(), opts, m, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := runReference(t, py, spec)

	// Gradients: float32 sums in different orders, so relative to the
	// largest entry of each parameter.
	for name, g := range firstGrad {
		if d, scale := maxDiff(g, want.FirstGrad[name]); d > 1e-4*scale+1e-7 {
			t.Errorf("first gradient of %s: max difference %.3g (largest entry %.3g)", name, d, scale)
		}
	}
	if len(res.UpdateLoss) != len(want.Losses) {
		t.Fatalf("%d strata updates, %d reference updates", len(res.UpdateLoss), len(want.Losses))
	}
	for i, l := range res.UpdateLoss {
		if math.Abs(l-want.Losses[i]) > 1e-4*math.Abs(want.Losses[i]) {
			t.Errorf("update %d: loss %.6f bits in strata, %.6f in PyTorch", i+1, l, want.Losses[i])
		}
	}
	t.Logf("%s-norm: loss %.4f → %.4f bits in strata, %.4f → %.4f in PyTorch", norm,
		res.UpdateLoss[0], res.UpdateLoss[len(res.UpdateLoss)-1], want.Losses[0], want.Losses[len(want.Losses)-1])
	for _, p := range m.Params().List() {
		// Keys' biases add the same amount to every score of a query, so
		// softmax makes their true gradient zero; Adam divides rounding
		// noise by its own size, so they drift apart by up to lr per step
		// and say nothing about either implementation.
		if strings.HasSuffix(p.Name, "k_proj.bias") {
			continue
		}
		if d, _ := maxDiff(p.Data, want.Final[p.Name]); d > 1e-3 {
			t.Errorf("final %s: max difference %.3g", p.Name, d)
		}
	}
}

// gradientOf is the trainer's gradient of one batch (divided by its target
// tokens), copied per parameter name; it leaves the gradients zeroed.
func gradientOf(m model.Model, b model.Batch, smoothing float32) map[string][]float32 {
	g := engine.NewGraph(1)
	g.SetThreads(1)
	m.Params().ZeroGrad()
	res := model.Loss(g, m, b, smoothing)
	g.BackwardScaled(res.Loss, 1/float32(res.Tokens))
	out := map[string][]float32{}
	for _, p := range m.Params().List() {
		out[p.Name] = append([]float32(nil), p.Grad...)
	}
	m.Params().ZeroGrad()
	return out
}

func runReference(t *testing.T, py string, spec paritySpec) parityResult {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.json")
	js, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, js, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "strata_parity.py", path)
	cmd.Dir = filepath.Join("..", "bench", "reference")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench/reference/strata_parity.py: %v\n%s", err, stderr.String())
	}
	var res parityResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("bench/reference/strata_parity.py output: %v", err)
	}
	return res
}

// maxDiff returns the largest |a-b| and the largest |b|.
func maxDiff(a, b []float32) (d, scale float64) {
	if len(a) != len(b) {
		return math.Inf(1), 0
	}
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i]-b[i])))
		scale = math.Max(scale, math.Abs(float64(b[i])))
	}
	return d, scale
}
