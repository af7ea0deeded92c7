package model

import (
	"fmt"
	"math"

	"github.com/strata-nmt/strata/engine"
)

// Model is what the trainer, the decoder and the analyses need from any
// architecture.
type Model interface {
	Config() Config
	Params() *engine.Params
	// Encode runs the encoder over src (B×S ids, right-padded with PadID).
	Encode(g *engine.Graph, src []int32, b, s int, opt Collect) *EncoderOut
	// Decode runs the decoder over tgtIn (B×T ids, teacher forcing) and
	// returns logits (B·T × TgtVocab).
	Decode(g *engine.Graph, enc *EncoderOut, tgtIn []int32, t int, opt Collect) *DecoderOut
}

// Collect asks a forward pass to keep per-layer tensors for analysis; the
// training path is the same with or without it.
type Collect struct {
	States    bool // hidden state after every layer
	Attention bool // attention probabilities of every layer
}

// EncoderOut is the encoder's result.
type EncoderOut struct {
	B, S int
	// Out is the top of the encoder (B·S × D).
	Out *engine.Tensor
	// Memories[i] is what decoder layer i attends to: Out for every layer in
	// the standard model, encoder block i in MSC, a learned layer mix in
	// transparent attention.
	Memories []*engine.Tensor
	// Context[i] is MSC's context state for decoder layer i (nil otherwise).
	Context []*engine.Tensor
	KeyPad  []bool // B×S, true at padding
	// Embedded is the scaled, positioned source embedding (layer 0).
	Embedded  *engine.Tensor
	States    []*engine.Tensor // per layer, when collected
	Attention []*engine.Tensor // per layer B×H×S×S, when collected
}

// DecoderOut is the decoder's result.
type DecoderOut struct {
	Logits        *engine.Tensor
	States        []*engine.Tensor
	SelfAttention []*engine.Tensor
	CrossAttn     []*engine.Tensor
}

// Transformer is the standard encoder-decoder (Vaswani et al. 2017) with
// configurable LayerNorm placement.
type Transformer struct {
	cfg    Config
	params *engine.Params
	Emb    Embeddings
	Enc    []EncoderLayer
	Dec    []DecoderLayer
	EncLN  LayerNorm // final norms of pre / swap-pre stacks
	DecLN  LayerNorm
}

// Embeddings holds the (possibly shared) embedding matrices.
type Embeddings struct {
	Src, Tgt, Out *engine.Tensor
	Scale         float32
}

// EncoderLayer is self-attention then FFN, each in a Sublayer.
type EncoderLayer struct {
	Attn    SelfAttention
	FFN     FFN
	AttnSub Sublayer
	FFNSub  Sublayer
}

// DecoderLayer is masked self-attention, encoder attention, FFN.
type DecoderLayer struct {
	Self                      SelfAttention
	Cross                     CrossAttention
	FFN                       FFN
	SelfSub, CrossSub, FFNSub Sublayer
}

// New builds a model for cfg with parameters initialised from seed.
func New(cfg Config, seed uint64) (Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if ctor, ok := architectures[cfg.Arch]; ok {
		return ctor(cfg, seed)
	}
	return nil, fmt.Errorf("model: unknown arch %q", cfg.Arch)
}

// architectures maps Config.Arch to a constructor; deep architectures
// register themselves from their own files.
var architectures = map[Arch]func(Config, uint64) (Model, error){
	ArchTransformer: func(c Config, seed uint64) (Model, error) { return NewTransformer(c, seed), nil },
}

// NewTransformer builds the standard model (cfg must be valid).
func NewTransformer(cfg Config, seed uint64) *Transformer {
	b := &builder{params: engine.NewParams(), rng: engine.NewRNG(seed), cfg: &cfg}
	m := &Transformer{cfg: cfg, params: b.params}
	m.Emb = newEmbeddings(b)
	for i := 0; i < cfg.EncoderLayers; i++ {
		m.Enc = append(m.Enc, newEncoderLayer(b, fmt.Sprintf("encoder.layers.%d", i), i+1 != cfg.NoResidualLayer))
	}
	for i := 0; i < cfg.DecoderLayers; i++ {
		m.Dec = append(m.Dec, newDecoderLayer(b, fmt.Sprintf("decoder.layers.%d", i)))
	}
	if cfg.EncoderFinalNorm() {
		m.EncLN = b.layerNorm("encoder.layer_norm", cfg.DModel)
	}
	if cfg.DecoderFinalNorm() {
		m.DecLN = b.layerNorm("decoder.layer_norm", cfg.DModel)
	}
	return m
}

func newEmbeddings(b *builder) Embeddings {
	c := b.cfg
	e := Embeddings{Scale: float32(math.Sqrt(float64(c.DModel)))}
	e.Src = b.embedding("encoder.embed_tokens.weight", c.SrcVocab, c.DModel, c.PadID)
	switch {
	case c.ShareAllEmbeddings:
		e.Tgt, e.Out = e.Src, e.Src
	case c.ShareDecoderInputOutput:
		e.Tgt = b.embedding("decoder.embed_tokens.weight", c.TgtVocab, c.DModel, c.PadID)
		e.Out = e.Tgt
	default:
		e.Tgt = b.embedding("decoder.embed_tokens.weight", c.TgtVocab, c.DModel, c.PadID)
		e.Out = b.embedding("decoder.output_projection.weight", c.TgtVocab, c.DModel, c.PadID)
	}
	return e
}

func newEncoderLayer(b *builder, p string, residual bool) EncoderLayer {
	n := b.cfg.EncoderNorm
	return EncoderLayer{
		Attn:    newSelfAttention(b, p+".self_attn"),
		FFN:     newFFN(b, p),
		AttnSub: newSublayer(b, p+".self_attn_layer_norm", n, residual),
		FFNSub:  newSublayer(b, p+".final_layer_norm", n, true),
	}
}

func newDecoderLayer(b *builder, p string) DecoderLayer {
	n := b.cfg.DecoderNorm
	return DecoderLayer{
		Self:     newSelfAttention(b, p+".self_attn"),
		Cross:    newCrossAttention(b, p+".encoder_attn"),
		FFN:      newFFN(b, p),
		SelfSub:  newSublayer(b, p+".self_attn_layer_norm", n, true),
		CrossSub: newSublayer(b, p+".encoder_attn_layer_norm", n, true),
		FFNSub:   newSublayer(b, p+".final_layer_norm", n, true),
	}
}

// Config returns the model's configuration.
func (m *Transformer) Config() Config { return m.cfg }

// Params returns the trainable parameters.
func (m *Transformer) Params() *engine.Params { return m.params }

// PadMask returns the B×S padding mask of an id matrix.
func PadMask(ids []int32, pad int) []bool {
	mask := make([]bool, len(ids))
	for i, id := range ids {
		mask[i] = id == int32(pad)
	}
	return mask
}

// embed is embedTokens with the Transformer's own embeddings.
func (m *Transformer) embed(g *engine.Graph, w *engine.Tensor, ids []int32, t, start int) *engine.Tensor {
	return embedTokens(g, &m.cfg, m.Emb, w, ids, t, start)
}

// embedTokens is Drop(scale·E[ids] + positions), every architecture's
// input layer; start offsets positions for incremental decoding.
func embedTokens(g *engine.Graph, cfg *Config, e Embeddings, w *engine.Tensor, ids []int32, t, start int) *engine.Tensor {
	x := g.AddPositions(g.Embed(w, ids, e.Scale), ids, t, cfg.PadID, start)
	return g.Dropout(x, cfg.Dropout)
}

// Forward runs the layer on x (B·S×D).
func (l EncoderLayer) Forward(g *engine.Graph, x *engine.Tensor, b, s int, pad []bool) (*engine.Tensor, *engine.Tensor) {
	y, _, probs := l.forwardNext(g, x, nil, b, s, pad, nil)
	return y, probs
}

// forwardNext is Forward given x's norm xn when the layer below computed
// it (nil otherwise), returning next's norm of the output as well when the
// two fuse (Sublayer.ApplyNext; next nil: no sublayer follows, or none
// known).
func (l EncoderLayer) forwardNext(g *engine.Graph, x, xn *engine.Tensor, b, s int, pad []bool, next *Sublayer) (y, yn, probs *engine.Tensor) {
	mark := g.Mark()
	x, xn = l.AttnSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor {
		var out *engine.Tensor
		out, probs = l.Attn.Apply(g, h, b, s, pad, false)
		return out
	}, &l.FFNSub)
	if !g.Recording() {
		// at inference the attention's intermediates (queries, keys and
		// values, context: 5 rows × D per token) are dead once the
		// sub-layer is done; given back now, the feed-forward sub-layer
		// (4 rows × D of hidden units) reuses them instead of adding to
		// them (xn and yn are nil at inference: nothing fuses)
		g.ReleaseSince(mark, x, probs)
	}
	y, yn = l.FFNSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor { return l.FFN.Apply(g, h) }, next)
	return y, yn, probs
}

// nextSublayer is the sublayer that takes layer i's output in a stack of n
// layers whose first sublayers are first(j): layer i+1's, or for the top
// layer the stack's final norm (as a pre-norm sublayer) when it has one.
func nextSublayer(i, n int, first func(j int) *Sublayer, finalNorm bool, ln LayerNorm) *Sublayer {
	switch {
	case i+1 < n:
		return first(i + 1)
	case finalNorm:
		return &Sublayer{Norm: NormPre, LN: ln}
	}
	return nil
}

// Encode implements Model.
func (m *Transformer) Encode(g *engine.Graph, src []int32, b, s int, opt Collect) *EncoderOut {
	out := &EncoderOut{B: b, S: s, KeyPad: PadMask(src, m.cfg.PadID)}
	x := m.embed(g, m.Emb.Src, src, s, 0)
	out.Embedded = x
	base := g.Mark()
	var xn *engine.Tensor // x's norm, when the layer below fused it
	first := func(j int) *Sublayer { return &m.Enc[j].AttnSub }
	for i, l := range m.Enc {
		next := nextSublayer(i, len(m.Enc), first, m.cfg.EncoderFinalNorm(), m.EncLN)
		x = encoderLayer(g, opt, func() *engine.Tensor {
			var y, p *engine.Tensor
			y, xn, p = l.forwardNext(g, x, xn, b, s, out.KeyPad, next)
			collect(out, y, p, opt)
			return y
		})
		if !g.Recording() && opt == (Collect{}) {
			// nothing reads an earlier layer's output any more (the
			// embedding stays: EncoderOut.Embedded)
			g.ReleaseSince(base, x)
		}
	}
	if m.cfg.EncoderFinalNorm() {
		if xn == nil {
			xn = m.EncLN.Apply(g, x)
		}
		x = xn
	}
	out.Out = x
	out.Memories = make([]*engine.Tensor, len(m.Dec))
	for i := range out.Memories {
		out.Memories[i] = x
	}
	return out
}

// decoderTop is the top of every architecture's decoder: the final norm of
// a pre or swap-pre stack, then the output projection.
func decoderTop(g *engine.Graph, cfg *Config, ln LayerNorm, emb Embeddings, x *engine.Tensor) *engine.Tensor {
	return decoderTopNormed(g, cfg, ln, emb, x, nil)
}

// decoderTopNormed is decoderTop given x's final norm xn when the top layer
// computed it (nil otherwise).
func decoderTopNormed(g *engine.Graph, cfg *Config, ln LayerNorm, emb Embeddings, x, xn *engine.Tensor) *engine.Tensor {
	if cfg.DecoderFinalNorm() {
		if xn == nil {
			xn = ln.Apply(g, x)
		}
		x = xn
	}
	return g.OutputLinear(x, emb.Out)
}

// record keeps one decoder layer's output and attention as opt asks.
func (out *DecoderOut) record(opt Collect, x, selfP, crossP *engine.Tensor) {
	if opt.States {
		out.States = append(out.States, x)
	}
	if opt.Attention {
		out.SelfAttention = append(out.SelfAttention, selfP)
		out.CrossAttn = append(out.CrossAttn, crossP)
	}
}

// encoderLayer runs one encoder layer. At inference, unless states or
// attention are collected, nothing but the layer's output outlives it, so
// the layer's other buffers go back to the arena: encoding then holds one
// layer's intermediates instead of every layer's (for a 6-layer d=256
// model decoding 128 sentences, 500 instead of 676 MB peak RSS).
func encoderLayer(g *engine.Graph, opt Collect, layer func() *engine.Tensor) *engine.Tensor {
	if g.Recording() || opt != (Collect{}) {
		return layer()
	}
	mark := g.Mark()
	y := layer()
	g.ReleaseSince(mark, y)
	return y
}

func collect(out *EncoderOut, x, p *engine.Tensor, opt Collect) {
	if opt.States {
		out.States = append(out.States, x)
	}
	if opt.Attention {
		out.Attention = append(out.Attention, p)
	}
}

// Forward runs the decoder layer with teacher forcing over t steps.
func (l DecoderLayer) Forward(g *engine.Graph, x, mem *engine.Tensor, b, t, s int, memPad []bool) (y, selfP, crossP *engine.Tensor) {
	y, _, selfP, crossP = l.forwardNext(g, x, nil, mem, b, t, s, memPad, nil)
	return y, selfP, crossP
}

// forwardNext is Forward given x's norm xn when the layer below computed
// it, returning next's norm of the output when the two fuse (as
// EncoderLayer.forwardNext).
func (l DecoderLayer) forwardNext(g *engine.Graph, x, xn, mem *engine.Tensor, b, t, s int, memPad []bool, next *Sublayer) (y, yn, selfP, crossP *engine.Tensor) {
	x, xn = l.SelfSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor {
		var o *engine.Tensor
		o, selfP = l.Self.Apply(g, h, b, t, nil, true)
		return o
	}, &l.CrossSub)
	kv := l.Cross.Memory(g, mem)
	x, xn = l.CrossSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor {
		var o *engine.Tensor
		o, crossP = l.Cross.Apply(g, h, kv, b, t, s, memPad)
		return o
	}, &l.FFNSub)
	y, yn = l.FFNSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor { return l.FFN.Apply(g, h) }, next)
	return y, yn, selfP, crossP
}

// Decode implements Model. Target padding needs no mask: padded positions
// come after every real token (right padding), so the causal mask already
// hides them from real queries, and their own outputs are ignored by the
// loss.
func (m *Transformer) Decode(g *engine.Graph, enc *EncoderOut, tgtIn []int32, t int, opt Collect) *DecoderOut {
	b := enc.B
	x := m.embed(g, m.Emb.Tgt, tgtIn, t, 0)
	out := &DecoderOut{}
	var xn *engine.Tensor // x's norm, when the layer below fused it
	first := func(j int) *Sublayer { return &m.Dec[j].SelfSub }
	for i, l := range m.Dec {
		var sp, cp *engine.Tensor
		next := nextSublayer(i, len(m.Dec), first, m.cfg.DecoderFinalNorm(), m.DecLN)
		x, xn, sp, cp = l.forwardNext(g, x, xn, enc.Memories[i], b, t, enc.S, enc.KeyPad, next)
		out.record(opt, x, sp, cp)
	}
	out.Logits = decoderTopNormed(g, &m.cfg, m.DecLN, m.Emb, x, xn)
	return out
}
