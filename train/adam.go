package train

import (
	"fmt"
	"math"

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
// their current gradients.
func (a *Adam) Update(lr float64) {
	a.Step++
	c := a.cfg
	bc1 := 1 - math.Pow(c.Beta1, float64(a.Step))
	bc2 := 1 - math.Pow(c.Beta2, float64(a.Step))
	stepSize := lr * math.Sqrt(bc2) / bc1
	b1, b2 := float32(c.Beta1), float32(c.Beta2)
	for i, p := range a.params {
		m, v, l2 := a.m[i], a.v[i], float32(a.l2[i])
		decay := float32(1 - lr*c.WeightDecay)
		eps := float32(c.Eps) // added to √v (not to the bias-corrected √v̂), as fairseq
		for j, g := range p.Grad {
			w := p.Data[j]
			g += l2 * w
			m[j] = b1*m[j] + (1-b1)*g
			v[j] = b2*v[j] + (1-b2)*g*g
			if c.WeightDecay != 0 {
				w *= decay
			}
			p.Data[j] = w - float32(stepSize)*m[j]/(float32(math.Sqrt(float64(v[j])))+eps)
		}
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
