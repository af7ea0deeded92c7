package analysis

import (
	"fmt"
	"math"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/optim"
)

// ProbeInput is the data of one probe for one batch: rows Rows of the
// hidden-state matrix X (N×d) with their class labels.
type ProbeInput struct {
	X      *engine.Tensor
	Rows   []int
	Labels []int32
}

// Probes is a bank of independent token-level linear softmax classifiers
// (d → classes) trained together: one graph computes every probe's mean
// cross-entropy and one Adam step updates them all. Because Adam is
// element-wise and the probes share no parameter, this is exactly training
// each probe on its own.
type Probes struct {
	n, d, classes int
	params        *engine.Params
	w, b          []*engine.Tensor
	adam          *optim.Adam
	lr            float64
	g, ig         *engine.Graph // training and evaluation graphs
}

// NewProbes makes n probes over d-dimensional features, initialised as
// PyTorch's nn.Linear (uniform in ±1/√d), trained by Adam with PyTorch's
// defaults (β 0.9, 0.999, ε 1e-8) at learning rate lr.
func NewProbes(n, d, classes int, lr float64, seed uint64) (*Probes, error) {
	if n < 1 || d < 1 || classes < 2 {
		return nil, fmt.Errorf("probes: need n ≥ 1, d ≥ 1 and at least 2 classes (got %d, %d, %d)", n, d, classes)
	}
	p := &Probes{n: n, d: d, classes: classes, params: engine.NewParams(), lr: lr,
		g: engine.NewGraph(seed), ig: engine.NewInference()}
	rng := engine.NewRNG(seed)
	bound := 1 / math.Sqrt(float64(d))
	for i := 0; i < n; i++ {
		w := p.params.New(fmt.Sprintf("probe.%d.weight", i), classes, d)
		b := p.params.New(fmt.Sprintf("probe.%d.bias", i), classes)
		engine.Uniform(w, -bound, bound, rng)
		engine.Uniform(b, -bound, bound, rng)
		p.w, p.b = append(p.w, w), append(p.b, b)
	}
	var err error
	p.adam, err = optim.NewAdam(p.params.List(), optim.AdamConfig{Beta1: 0.9, Beta2: 0.999, Eps: 1e-8})
	return p, err
}

// Len is the number of probes.
func (p *Probes) Len() int { return p.n }

// logits returns probe i's logits for its input rows.
func (p *Probes) logits(g *engine.Graph, i int, in ProbeInput) *engine.Tensor {
	return g.Linear(g.GatherRows(in.X, in.Rows), p.w[i], p.b[i])
}

// Step runs one training step on a batch (in[i] feeds probe i; probes
// with no rows are skipped) and returns each probe's mean loss (NaN when
// skipped).
func (p *Probes) Step(in []ProbeInput) []float64 {
	p.check(in)
	p.params.ZeroGrad()
	losses := make([]float64, p.n)
	var total *engine.Tensor
	for i := range in {
		losses[i] = math.NaN()
		if len(in[i].Rows) == 0 {
			continue
		}
		ce := p.g.LabelSmoothedCE(p.logits(p.g, i, in[i]), in[i].Labels, 0, -1)
		mean := p.g.Scale(ce.Loss, 1/float32(ce.Tokens))
		losses[i] = float64(mean.Item())
		if total == nil {
			total = mean
		} else {
			total = p.g.Add(total, mean)
		}
	}
	if total != nil {
		p.g.Backward(total)
		p.adam.Update(p.lr)
	}
	p.g.Reset()
	return losses
}

// Correct returns, for each probe, how many of its rows it classifies
// right (arg-max of the logits).
func (p *Probes) Correct(in []ProbeInput) []int {
	out := make([]int, p.n)
	for i, rows := range p.CorrectRows(in) {
		for _, ok := range rows {
			if ok {
				out[i]++
			}
		}
	}
	return out
}

// CorrectRows says, for each probe and each of its rows, whether the probe
// classifies the row right (what per-sentence counts are made of).
func (p *Probes) CorrectRows(in []ProbeInput) [][]bool {
	p.check(in)
	out := make([][]bool, p.n)
	for i := range in {
		out[i] = make([]bool, len(in[i].Rows))
		if len(in[i].Rows) == 0 {
			continue
		}
		z := p.logits(p.ig, i, in[i])
		for r, want := range in[i].Labels {
			out[i][r] = argmax(z.Data[r*p.classes:(r+1)*p.classes]) == int(want)
		}
		p.ig.Reset()
	}
	return out
}

func (p *Probes) check(in []ProbeInput) {
	if len(in) != p.n {
		panic(fmt.Sprintf("probes: %d inputs for %d probes", len(in), p.n))
	}
	for i, x := range in {
		if len(x.Rows) != len(x.Labels) {
			panic(fmt.Sprintf("probes: probe %d has %d rows and %d labels", i, len(x.Rows), len(x.Labels)))
		}
		if len(x.Rows) > 0 && x.X.Cols() != p.d {
			panic(fmt.Sprintf("probes: probe %d features have %d columns, want %d", i, x.X.Cols(), p.d))
		}
	}
}

func argmax(row []float32) int {
	best := 0
	for j, v := range row {
		if v > row[best] {
			best = j
		}
	}
	return best
}
