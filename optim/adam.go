// Package optim holds the optimiser strata trains with (Adam with
// fairseq's semantics). It sits beside model, below train, so that
// training and the analyses that fit their own small models (the LLR
// probes) share one implementation without analysis depending on train.
package optim

import (
	"fmt"
	"math"
	"sync"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// AdamConfig holds Adam's hyper-parameters.
type AdamConfig struct {
	Beta1, Beta2, Eps float64
	// WeightDecay is decoupled weight decay (AdamW, fairseq's
	// --weight-decay): w -= lr·wd·w, applied to every parameter.
	WeightDecay float64
	// L2 adds λ·w to the gradient of parameters whose group has a λ
	// (classic L2 regularisation; the MSC paper puts 1e-5 on the encoder).
	L2 map[string]float64
}

// ParamGroup names the group a parameter belongs to (model.ParamGroup:
// "encoder", "decoder", or "embeddings" for the shared embedding matrices).
// L2 settings refer to these names.
func ParamGroup(name string) string { return model.ParamGroup(name) }

// Adam is the optimiser with fairseq's semantics (bias-corrected moments;
// eps added to the square root of the second moment).
type Adam struct {
	cfg    AdamConfig
	params []*engine.Tensor
	m, v   [][]float32
	l2     []float64
	Step   int
	// Threads is how many goroutines an update uses (0 or 1: one).
	Threads int
}

// NewAdam creates zeroed moment buffers for params.
func NewAdam(params []*engine.Tensor, cfg AdamConfig) (*Adam, error) {
	a := &Adam{cfg: cfg, params: params}
	known := map[string]bool{}
	for _, p := range params {
		a.m = append(a.m, make([]float32, len(p.Data)))
		a.v = append(a.v, make([]float32, len(p.Data)))
		g := ParamGroup(p.Name)
		known[g] = true
		a.l2 = append(a.l2, cfg.L2[g])
	}
	for g := range cfg.L2 {
		if !known[g] {
			return nil, fmt.Errorf("l2: no parameter group %q (groups: encoder, decoder, embeddings)", g)
		}
	}
	return a, nil
}

// Update applies one step with learning rate lr to the parameters, using
// their current gradients. With Threads > 1 the elements are split into
// that many contiguous ranges updated at once; each element's update is the
// same arithmetic whatever the split, so results do not depend on Threads.
func (a *Adam) Update(lr float64) {
	a.Step++
	c := a.cfg
	bc1 := 1 - math.Pow(c.Beta1, float64(a.Step))
	bc2 := 1 - math.Pow(c.Beta2, float64(a.Step))
	u := engine.AdamStep{
		B1: float32(c.Beta1), B2: float32(c.Beta2),
		StepSize: float32(lr * math.Sqrt(bc2) / bc1),
		Decay:    float32(1 - lr*c.WeightDecay), WD: c.WeightDecay != 0,
		Eps: float32(c.Eps), // added to √v (not to the bias-corrected √v̂), as fairseq
	}
	total := 0
	for _, p := range a.params {
		total += len(p.Grad)
	}
	// the step is serial between two parallel phases (the workers' passes
	// and the gradient reduction), so a core would idle through it
	n := max(min(a.Threads, total/adamMinRange), 1)
	if n == 1 {
		a.updateRange(&u, 0, total)
		return
	}
	var wg sync.WaitGroup
	wg.Add(n - 1)
	for i := 1; i < n; i++ {
		go func(lo, hi int) {
			defer wg.Done()
			a.updateRange(&u, lo, hi)
		}(i*total/n, (i+1)*total/n)
	}
	a.updateRange(&u, 0, total/n)
	wg.Wait()
}

// adamMinRange is the fewest elements worth a goroutine of their own.
const adamMinRange = 1 << 16

// updateRange updates elements [lo, hi) of the concatenation of the
// parameters.
func (a *Adam) updateRange(u *engine.AdamStep, lo, hi int) {
	off := 0
	for i, p := range a.params {
		n := len(p.Grad)
		s, e := max(lo-off, 0), min(hi-off, n)
		off += n
		if s >= e {
			continue
		}
		engine.AdamUpdate(*u, p.Data[s:e], p.Grad[s:e], a.m[i][s:e], a.v[i][s:e], float32(a.l2[i]))
	}
}

// State returns the moment buffers as named tensors for checkpoints.
func (a *Adam) State() []*engine.Tensor {
	var out []*engine.Tensor
	for i, p := range a.params {
		m := engine.FromData(a.m[i], len(a.m[i]))
		m.Name = "optimizer.exp_avg." + p.Name
		v := engine.FromData(a.v[i], len(a.v[i]))
		v.Name = "optimizer.exp_avg_sq." + p.Name
		out = append(out, m, v)
	}
	return out
}

// LoadState restores moment buffers from checkpoint tensors.
func (a *Adam) LoadState(ts map[string]*engine.Tensor, step int) error {
	for i, p := range a.params {
		m, okm := ts["optimizer.exp_avg."+p.Name]
		v, okv := ts["optimizer.exp_avg_sq."+p.Name]
		if !okm || !okv || len(m.Data) != len(a.m[i]) || len(v.Data) != len(a.v[i]) {
			return fmt.Errorf("optimizer state for %s missing or of the wrong size", p.Name)
		}
		copy(a.m[i], m.Data)
		copy(a.v[i], v.Data)
	}
	a.Step = step
	return nil
}
