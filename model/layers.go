package model

import (
	"fmt"
	"math"

	"github.com/strata-nmt/strata/engine"
)

// builder creates named parameters with fairseq's initialisation.
type builder struct {
	params *engine.Params
	rng    *engine.RNG
	cfg    *Config
}

// linear registers prefix.weight (out×in, xavier-uniform with gain) and
// prefix.bias (zeros).
func (b *builder) linear(prefix string, in, out int, gain float64, bias bool) Linear {
	w := b.params.New(prefix+".weight", out, in)
	engine.XavierUniform(w, gain, b.rng)
	l := Linear{W: w}
	if bias {
		l.B = b.params.New(prefix+".bias", out)
	}
	return l
}

// fusedLinear registers several projections under their own names (q_proj,
// k_proj, v_proj, as fairseq names them) but stores them in one contiguous
// buffer, so the forward pass runs a single GEMM for all of them.
func (b *builder) fusedLinear(prefix string, names []string, in, out int, gain float64) Linear {
	k := len(names)
	w := engine.NewTensor(k*out, in)
	w.SetRequiresGrad(true)
	bias := engine.NewTensor(k * out)
	bias.SetRequiresGrad(true)
	for i, n := range names {
		pw := b.params.Adopt(prefix+"."+n+".weight", w, i*out*in, out, in)
		engine.XavierUniform(pw, gain, b.rng)
		b.params.Adopt(prefix+"."+n+".bias", bias, i*out, out)
	}
	w.Name, bias.Name = prefix+".fused.weight", prefix+".fused.bias"
	return Linear{W: w, B: bias}
}

func (b *builder) layerNorm(prefix string, d int) LayerNorm {
	if !b.cfg.NormParams {
		return LayerNorm{}
	}
	g := b.params.New(prefix+".weight", d)
	engine.Fill(g, 1)
	return LayerNorm{Gain: g, Bias: b.params.New(prefix+".bias", d)}
}

func (b *builder) embedding(name string, vocab, d, pad int) *engine.Tensor {
	e := b.params.New(name, vocab, d)
	engine.Normal(e, math.Pow(float64(d), -0.5), b.rng)
	clear(e.Data[pad*d : (pad+1)*d])
	return e
}

// Linear is x·Wᵀ + b.
type Linear struct{ W, B *engine.Tensor }

// Apply runs the projection.
func (l Linear) Apply(g *engine.Graph, x *engine.Tensor) *engine.Tensor { return g.Linear(x, l.W, l.B) }

// LayerNorm with optional gain and bias.
type LayerNorm struct{ Gain, Bias *engine.Tensor }

// Apply normalises x.
func (n LayerNorm) Apply(g *engine.Graph, x *engine.Tensor) *engine.Tensor {
	return g.LayerNorm(x, n.Gain, n.Bias)
}

// SelfAttention is multi-head self-attention with a fused Q/K/V projection.
type SelfAttention struct {
	QKV, Out Linear
	Heads    int
	Dropout  float32
}

func newSelfAttention(b *builder, prefix string) SelfAttention {
	d := b.cfg.DModel
	return SelfAttention{
		// fairseq scales q/k/v init by 1/sqrt(2) when they share a dimension
		QKV:     b.fusedLinear(prefix, []string{"q_proj", "k_proj", "v_proj"}, d, d, 1/math.Sqrt2),
		Out:     b.linear(prefix+".out_proj", d, d, 1, true),
		Heads:   b.cfg.Heads,
		Dropout: b.cfg.AttentionDropout,
	}
}

// Apply attends x (B·T×D) to itself. It returns the projected output and the
// attention probabilities (B×H×T×T).
func (a SelfAttention) Apply(g *engine.Graph, x *engine.Tensor, b, t int, pad []bool, causal bool) (*engine.Tensor, *engine.Tensor) {
	qkv := a.QKV.Apply(g, x)
	d := x.Cols()
	ctx, p := g.Attention(engine.Cols{T: qkv, Col: 0}, engine.Cols{T: qkv, Col: d}, engine.Cols{T: qkv, Col: 2 * d},
		b, t, t, engine.AttnOptions{Heads: a.Heads, KeyPad: pad, Causal: causal, Dropout: a.Dropout})
	return a.Out.Apply(g, ctx), p
}

// CrossAttention attends queries to a memory (encoder output) with a fused
// K/V projection of the memory.
type CrossAttention struct {
	Q, KV, Out Linear
	Heads      int
	Dropout    float32
}

func newCrossAttention(b *builder, prefix string) CrossAttention {
	d := b.cfg.DModel
	return CrossAttention{
		Q:       b.linear(prefix+".q_proj", d, d, 1/math.Sqrt2, true),
		KV:      b.fusedLinear(prefix, []string{"k_proj", "v_proj"}, d, d, 1/math.Sqrt2),
		Out:     b.linear(prefix+".out_proj", d, d, 1, true),
		Heads:   b.cfg.Heads,
		Dropout: b.cfg.AttentionDropout,
	}
}

// Memory projects a memory into keys and values once (reused by every
// decoding step).
func (a CrossAttention) Memory(g *engine.Graph, mem *engine.Tensor) *engine.Tensor {
	return a.KV.Apply(g, mem)
}

// Apply attends x (B·Tq×D) to projected memory kv (B·Tk×2D).
func (a CrossAttention) Apply(g *engine.Graph, x, kv *engine.Tensor, b, tq, tk int, pad []bool) (*engine.Tensor, *engine.Tensor) {
	q := a.Q.Apply(g, x)
	d := x.Cols()
	ctx, p := g.Attention(engine.Cols{T: q}, engine.Cols{T: kv, Col: 0}, engine.Cols{T: kv, Col: d},
		b, tq, tk, engine.AttnOptions{Heads: a.Heads, KeyPad: pad, Dropout: a.Dropout})
	return a.Out.Apply(g, ctx), p
}

// FFN is the position-wise ReLU feed-forward block.
type FFN struct {
	FC1, FC2 Linear
	Dropout  float32 // activation dropout
}

func newFFN(b *builder, prefix string) FFN {
	return FFN{
		FC1:     b.linear(prefix+".fc1", b.cfg.DModel, b.cfg.FFN, 1, true),
		FC2:     b.linear(prefix+".fc2", b.cfg.FFN, b.cfg.DModel, 1, true),
		Dropout: b.cfg.ActivationDropout,
	}
}

// Apply runs fc2(dropout(relu(fc1(x)))).
// fc1's bias and the ReLU are one pass (engine.LinearReLU).
func (f FFN) Apply(g *engine.Graph, x *engine.Tensor) *engine.Tensor {
	var h *engine.Tensor
	if f.FC1.B != nil {
		h = g.LinearReLU(x, f.FC1.W, f.FC1.B)
	} else {
		h = g.ReLU(f.FC1.Apply(g, x))
	}
	return f.FC2.Apply(g, g.Dropout(h, f.Dropout))
}

// Sublayer wraps a sub-network F with residual connection, dropout and layer
// norm in one of the three placements:
//
//	post:     y = LN(x + Drop(F(x)))
//	pre:      y = x + Drop(F(LN(x)))
//	swap-pre: y = x + Drop(LN(F(x)))
//
// With Residual false the "x +" term is dropped (the paper's w/o Res.).
type Sublayer struct {
	Norm     Norm
	LN       LayerNorm
	Dropout  float32
	Residual bool
}

// fuseResidualNorm: ApplyNext fuses residuals with norms while training
// (tests turn it off to compare with the unfused chain).
var fuseResidualNorm = true

// Apply runs the wrapped sub-network f.
func (s Sublayer) Apply(g *engine.Graph, x *engine.Tensor, f func(*engine.Tensor) *engine.Tensor) *engine.Tensor {
	y, _ := s.ApplyNext(g, x, nil, f, nil)
	return y
}

// ApplyNext is Apply followed, when next is a pre-norm sublayer, by next's
// norm of the result: yn = next.LN(y), which next.ApplyNext then takes as
// its xn. While training, the residual, its dropout and that norm are one
// pass (engine.AddDropoutNorm), as are a post-norm sublayer's own residual
// and norm; otherwise (inference, or a norm that cannot be fused) yn is
// nil and the next sublayer normalises its input itself. The results are
// the unfused chain's bit for bit.
func (s Sublayer) ApplyNext(g *engine.Graph, x, xn *engine.Tensor, f func(*engine.Tensor) *engine.Tensor, next *Sublayer) (y, yn *engine.Tensor) {
	switch s.Norm {
	case NormPost:
		y = f(x)
	case NormPre:
		if xn == nil {
			xn = s.LN.Apply(g, x)
		}
		y = f(xn)
	case NormSwapPre:
		y = s.LN.Apply(g, f(x))
	default:
		panic(fmt.Sprintf("model: norm placement %q", s.Norm))
	}
	fuse := fuseResidualNorm && g.Recording() && s.Residual
	switch {
	case fuse && s.Norm == NormPost:
		_, y = g.AddDropoutNorm(x, y, s.Dropout, s.LN.Gain, s.LN.Bias)
		return y, nil
	case fuse && next != nil && next.Norm == NormPre:
		return g.AddDropoutNorm(x, y, s.Dropout, next.LN.Gain, next.LN.Bias)
	case s.Residual: // x + Drop(y) in one pass
		y = g.AddDropout(x, y, s.Dropout)
	default:
		y = g.Dropout(y, s.Dropout)
	}
	if s.Norm == NormPost {
		y = s.LN.Apply(g, y)
	}
	return y, nil
}

func newSublayer(b *builder, prefix string, norm Norm, residual bool) Sublayer {
	return Sublayer{Norm: norm, LN: b.layerNorm(prefix, b.cfg.DModel), Dropout: b.cfg.Dropout, Residual: residual}
}
