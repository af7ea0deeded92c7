package decode

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// Attention kinds.
const (
	AttnEncoder = "encoder" // encoder self-attention: source × source
	AttnDecoder = "decoder" // decoder self-attention: target × target
	AttnCross   = "cross"   // encoder-decoder attention: target × source
)

// AttentionMap is one layer's attention for one sentence pair, for plots.
type AttentionMap struct {
	Kind  string
	Layer int // 0-based
	// Weights[h][i][j] is head h's weight of query i on key j.
	Weights [][][]float32
	// Queries and Keys are the token ids along each axis: the encoder
	// input, or the decoder input (prefix then output without its last
	// token) for decoder queries/keys.
	Queries, Keys []int32
}

// Mean averages the heads.
func (a AttentionMap) Mean() [][]float32 {
	out := make([][]float32, len(a.Queries))
	for i := range out {
		out[i] = make([]float32, len(a.Keys))
		for _, h := range a.Weights {
			for j, w := range h[i] {
				out[i][j] += w / float32(len(a.Weights))
			}
		}
	}
	return out
}

// Attention runs the model with teacher forcing on one pair (src an
// encoder input, tgt the output after prefix, EOS last) and returns layer
// layer's attention of the given kind.
func Attention(m model.Model, src, prefix, tgt []int32, kind string, layer int) (AttentionMap, error) {
	if len(tgt) == 0 {
		return AttentionMap{}, fmt.Errorf("attention: empty output (it ends with EOS at least)")
	}
	g := engine.NewInference()
	in := append(append([]int32{}, prefix...), tgt[:len(tgt)-1]...)
	opt := model.Collect{Attention: true}
	enc := m.Encode(g, src, 1, len(src), opt)
	dec := m.Decode(g, enc, in, len(in), opt)
	var layers []*engine.Tensor
	a := AttentionMap{Kind: kind, Layer: layer}
	switch kind {
	case AttnEncoder:
		layers, a.Queries, a.Keys = enc.Attention, src, src
	case AttnDecoder:
		layers, a.Queries, a.Keys = dec.SelfAttention, in, in
	case AttnCross:
		layers, a.Queries, a.Keys = dec.CrossAttn, in, src
	default:
		return a, fmt.Errorf("attention kind %q: want %s, %s or %s", kind, AttnEncoder, AttnDecoder, AttnCross)
	}
	if layer < 0 || layer >= len(layers) || layers[layer] == nil {
		return a, fmt.Errorf("%s attention layer %d: the model has %d such layers (0-based)", kind, layer, len(layers))
	}
	p := layers[layer] // 1×H×Tq×Tk
	h, tq, tk := p.Dim(1), p.Dim(2), p.Dim(3)
	if tq != len(a.Queries) || tk != len(a.Keys) {
		return a, fmt.Errorf("%s attention layer %d has shape %v for %d queries and %d keys", kind, layer, p.Shape(), len(a.Queries), len(a.Keys))
	}
	a.Weights = make([][][]float32, h)
	for hd := range a.Weights {
		a.Weights[hd] = make([][]float32, tq)
		for i := range a.Weights[hd] {
			off := (hd*tq + i) * tk
			a.Weights[hd][i] = append([]float32(nil), p.Data[off:off+tk]...)
		}
	}
	return a, nil
}

// LineAttention is the attention of a translated line: line encoded as
// Lines encodes it for src→tgt, and hypothesis h of its result as the
// output, through the bundle's first model.
func (t *Translator) LineAttention(line, src, tgt string, h Hypothesis, kind string, layer int) (AttentionMap, error) {
	prefix, err := t.directionPrefix(src, tgt)
	if err != nil {
		return AttentionMap{}, err
	}
	x, err := t.B.Seq.EncoderInput(nil, t.B.Vocab.Encode(src, line), src, tgt)
	if err != nil {
		return AttentionMap{}, err
	}
	if n := t.SrcLimit(); len(x) > n {
		x = truncateSource(x, n)
	}
	return Attention(t.B.Model, x, prefix, h.Tokens, kind, layer)
}
