package model

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// tinyDeep is a 4-layer-encoder (2 blocks of 2), 2-layer-decoder config of
// the given arch, d=8.
func tinyDeep(arch Arch, norm Norm) Config {
	c := tinyConfig(norm)
	c.Arch = arch
	c.EncoderLayers, c.DecoderLayers = 4, 2
	c.Deep.Blocks = 2
	return c
}

func mustNew(t *testing.T, c Config) Model {
	t.Helper()
	m, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Finite-difference checks of every deep architecture and MSC ablation, on a
// sample of every parameter tensor (the GRU context cell, the fusion gate,
// the DLCL and transparent combination weights included).
func TestDeepModelGradients(t *testing.T) {
	cases := []struct {
		name string
		arch Arch
		norm Norm
		set  []string
	}{
		{"msc gru position gate", "msc", NormPre, nil},
		{"msc post-norm", "msc", NormPost, []string{"dropout=0.1"}},
		{"msc ffn pooled add", "msc", NormPre, []string{"deep.context=ffn", "deep.context_mode=pooled", "deep.fusion=add"}},
		{"msc gru pooled", "msc", NormPre, []string{"deep.context_mode=pooled"}},
		{"msc no cxt-enc attention", "msc", NormPre, []string{"deep.context_enc_attn=false"}},
		{"msc block-scale only", "msc", NormPre, []string{"deep.context=none"}},
		{"msc uneven blocks", "msc", NormPre, []string{"encoder_layers=3", "deep.block_layers=1,2"}},
		{"dlcl pre", "dlcl", NormPre, nil},
		{"dlcl post", "dlcl", NormPost, nil},
		{"dlcl encoder only", "dlcl", NormPre, []string{"deep.dlcl_decoder=false"}},
		{"transparent pre", "transparent", NormPre, []string{"deep.weight_dropout=0.2", "dropout=0.1"}},
		{"transparent post", "transparent", NormPost, nil},
	}
	for i, tc := range cases {
		c := tinyDeep(tc.arch, tc.norm)
		if err := c.Override(tc.set); err != nil {
			t.Fatal(err)
		}
		// Every case checks 2 coordinates of every tensor; which ones
		// rotates with the case so the suite covers more of each.
		checkDeepGrad(t, tc.name, mustNew(t, c), toyBatch(), 2, i)
	}
}

// checkDeepGrad is checkModelGrad (same steps, same tolerance, same
// argument) made cheaper for the many deep cases: per tensors coordinates,
// offset by rot, single-threaded graphs (tiny tensors), and the smaller step
// tried only when the larger one disagrees.
func checkDeepGrad(t *testing.T, name string, m Model, bt Batch, per, rot int) {
	t.Helper()
	loss := func(backward bool) float64 {
		g := engine.NewGraph(3)
		g.SetThreads(1)
		res := Loss(g, m, bt, 0.1)
		if backward {
			g.Backward(res.Loss)
		}
		return float64(res.Loss.Item())
	}
	m.Params().ZeroGrad()
	loss(true)
	for _, p := range m.Params().List() {
		stride := max(1, len(p.Data)/per)
		for j := (rot * 7919) % stride; j < len(p.Data); j += stride {
			ana := float64(p.Grad[j])
			var nums []float64
			ok := false
			for _, h := range []float32{2e-3, 5e-4} {
				orig := p.Data[j]
				p.Data[j] = orig + h
				fp := loss(false)
				p.Data[j] = orig - h
				fm := loss(false)
				p.Data[j] = orig
				num := (fp - fm) / float64(2*h)
				nums = append(nums, num)
				if ok = math.Abs(num-ana) <= 5e-3+3e-2*math.Abs(num); ok {
					break
				}
			}
			if !ok {
				t.Fatalf("%s: %s[%d] analytic %.5g numeric %.5g", name, p.Name, j, ana, nums)
			}
		}
	}
}

func TestGRUCellMatchesFormula(t *testing.T) {
	c := tinyDeep("msc", NormPre)
	b := &builder{params: engine.NewParams(), rng: engine.NewRNG(5), cfg: &c}
	q := newGRUCell(b, "q", 3)
	r := engine.NewRNG(6)
	h, x := engine.NewTensor(2, 3), engine.NewTensor(2, 3)
	engine.Uniform(h, -1, 1, r)
	engine.Uniform(x, -1, 1, r)
	g := engine.NewInference()
	y := q.Step(g, h, x)
	if y.Rows() != 2 || y.Cols() != 3 {
		t.Fatalf("GRU output shape %v, want [2 3]", y.Shape())
	}
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	wi, wh, bi, bh := q.IH.W.Data, q.HH.W.Data, q.IH.B.Data, q.HH.B.Data
	lin := func(w, bias, in []float32, row int) float64 {
		s := float64(bias[row])
		for k := 0; k < 3; k++ {
			s += float64(w[row*3+k]) * float64(in[k])
		}
		return s
	}
	for n := 0; n < 2; n++ {
		xn, hn := x.Data[n*3:n*3+3], h.Data[n*3:n*3+3]
		for j := 0; j < 3; j++ {
			rg := sig(lin(wi, bi, xn, j) + lin(wh, bh, hn, j))
			zg := sig(lin(wi, bi, xn, 3+j) + lin(wh, bh, hn, 3+j))
			ng := math.Tanh(lin(wi, bi, xn, 6+j) + rg*lin(wh, bh, hn, 6+j))
			want := (1-zg)*ng + zg*float64(hn[j])
			if got := float64(y.Data[n*3+j]); math.Abs(got-want) > 1e-5 {
				t.Fatalf("row %d unit %d: got %.7f want %.7f", n, j, got, want)
			}
		}
	}
}

func TestFusionGateSemantics(t *testing.T) {
	c := tinyDeep("msc", NormPre)
	b := &builder{params: engine.NewParams(), rng: engine.NewRNG(5), cfg: &c}
	f := newContextFusion(b, "f")
	r := engine.NewRNG(8)
	ah, ac := engine.NewTensor(3, 8), engine.NewTensor(3, 8)
	engine.Uniform(ah, -1, 1, r)
	engine.Uniform(ac, -1, 1, r)
	g := engine.NewInference()
	// W = 0 and a large bias open the gate fully towards Attn_h; a large
	// negative bias towards Attn_c.
	engine.Fill(f.Gate.W, 0)
	for _, tc := range []struct {
		bias float32
		want *engine.Tensor
	}{{30, ah}, {-30, ac}} {
		engine.Fill(f.Gate.B, tc.bias)
		y := f.fuse(g, ah, ac)
		for i, v := range y.Data {
			if math.Abs(float64(v-tc.want.Data[i])) > 1e-6 {
				t.Fatalf("bias %g: element %d = %g, want %g", tc.bias, i, v, tc.want.Data[i])
			}
		}
	}
	// bias 0, W = 0: the average
	engine.Fill(f.Gate.B, 0)
	y := f.fuse(g, ah, ac)
	for i, v := range y.Data {
		if want := (ah.Data[i] + ac.Data[i]) / 2; math.Abs(float64(v-want)) > 1e-6 {
			t.Fatalf("half gate: element %d = %g, want %g", i, v, want)
		}
	}
	add := &ContextFusion{}
	if y := add.fuse(g, ah, ac); y.Data[5] != ah.Data[5]+ac.Data[5] {
		t.Fatal("addition fusion must add")
	}
}

func TestMSCStructureAndShapes(t *testing.T) {
	c := tinyDeep("msc", NormPre)
	c.EncoderLayers, c.DecoderLayers, c.Deep.Blocks = 6, 3, 3
	m := mustNew(t, c).(*MSC)
	for _, name := range []string{
		"encoder.blocks.2.layers.1.self_attn.q_proj.weight", "encoder.blocks.0.layers.0.context_attn.k_proj.weight",
		"encoder.blocks.1.layers.0.context_gate.weight", "encoder.blocks.2.layer_norm.weight",
		"encoder.context_gru.weight_ih", "encoder.context_gru.bias_hh", "decoder.layers.2.context_attn.q_proj.bias",
		"decoder.layers.0.encoder_attn.v_proj.weight", "decoder.layers.1.context_gate.bias", "decoder.layer_norm.weight",
	} {
		if m.Params().Get(name) == nil {
			t.Errorf("missing parameter %s", name)
		}
	}
	if got := m.Params().Get("encoder.blocks.1.layers.0.context_gate.weight").Shape(); got[0] != 8 || got[1] != 16 {
		t.Errorf("gate weight shape %v, want [8 16]", got)
	}
	bt := toyBatch()
	g := engine.NewInference()
	enc := m.Encode(g, bt.Src, bt.B, bt.S, Collect{States: true, Attention: true})
	if len(enc.Memories) != 3 || len(enc.Context) != 3 || len(enc.States) != 6 || len(enc.Attention) != 6 {
		t.Fatalf("memories %d, contexts %d, states %d, attention %d", len(enc.Memories), len(enc.Context), len(enc.States), len(enc.Attention))
	}
	for i := range enc.Memories {
		if enc.Memories[i].Rows() != bt.B*bt.S || enc.Context[i].Rows() != bt.B*bt.S || enc.Context[i].Cols() != 8 {
			t.Fatalf("block %d: memory %v context %v", i, enc.Memories[i].Shape(), enc.Context[i].Shape())
		}
	}
	if enc.Memories[0] == enc.Memories[2] || enc.Memories[2] != enc.Out {
		t.Fatal("block-scale: decoder layer n must attend to block n, the last to the top")
	}
	dec := m.Decode(g, enc, bt.TgtIn, bt.T, Collect{})
	if dec.Logits.Rows() != bt.B*bt.T || dec.Logits.Cols() != 11 {
		t.Fatalf("logits %v", dec.Logits.Shape())
	}

	// block_scale=false: every layer reads the top block.
	c.Deep.BlockScale = false
	enc = mustNew(t, c).Encode(g, bt.Src, bt.B, bt.S, Collect{})
	if enc.Memories[0] != enc.Out || enc.Memories[1] != enc.Out {
		t.Fatal("without block-scale every decoder layer attends to the top")
	}
	// pooled mode: one context row per sentence
	c.Deep.ContextMode = ContextPooled
	enc = mustNew(t, c).Encode(g, bt.Src, bt.B, bt.S, Collect{})
	if enc.Context[1].Rows() != bt.B {
		t.Fatalf("pooled context has %d rows, want %d", enc.Context[1].Rows(), bt.B)
	}
	// ablations remove exactly their parameters
	noEnc := c
	noEnc.Deep.ContextEncAttn = false
	for _, n := range mustNew(t, noEnc).Params().Names() {
		if strings.HasPrefix(n, "encoder.blocks.") && strings.Contains(n, "context") {
			t.Fatalf("no-Cxt-Enc model has %s", n)
		}
	}
	none := c
	none.Deep.Context = ContextNone
	for _, n := range mustNew(t, none).Params().Names() {
		if strings.Contains(n, "context") {
			t.Fatalf("block-scale-only model has %s", n)
		}
	}
}

func TestMSCPaddingDoesNotLeak(t *testing.T) {
	// A padded source and the same source unpadded give the same logits
	// for the real sentence: masks cover the context attentions and the
	// pooling too.
	for _, mode := range []string{ContextPosition, ContextPooled} {
		c := tinyDeep("msc", NormPre)
		c.Deep.ContextMode = mode
		m := mustNew(t, c)
		g := engine.NewInference()
		tgt := []int32{2, 9, 10}
		short := m.Decode(g, m.Encode(g, []int32{4, 5, 2}, 1, 3, Collect{}), tgt, 3, Collect{}).Logits
		long := m.Decode(g, m.Encode(g, []int32{4, 5, 2, 0, 0}, 1, 5, Collect{}), tgt, 3, Collect{}).Logits
		for i := range short.Data {
			if math.Abs(float64(short.Data[i]-long.Data[i])) > 1e-4 {
				t.Fatalf("%s: padding changed logit %d: %g vs %g", mode, i, short.Data[i], long.Data[i])
			}
		}
	}
}

func TestDLCLInitialWeights(t *testing.T) {
	m := mustNew(t, tinyDeep("dlcl", NormPre)).(*DLCL)
	w := m.Enc.W
	for l := 0; l < 5; l++ {
		for k := 0; k < 5; k++ {
			want := float32(0)
			if k <= l {
				want = 1 / float32(l+1)
			}
			if w.Data[l*5+k] != want {
				t.Fatalf("W[%d][%d] = %g, want %g", l, k, w.Data[l*5+k], want)
			}
		}
	}
	if len(m.Enc.Norms) != 4 || m.Params().Get("encoder.history.layer_norms.3.weight") == nil {
		t.Fatal("pre-norm DLCL normalises each of the L stored layer outputs")
	}
	post := mustNew(t, tinyDeep("dlcl", NormPost)).(*DLCL)
	if len(post.Enc.Norms) != 4 || len(post.Dec.Norms) != 2 {
		t.Fatalf("post-norm DLCL normalises each of the L sums: %d, %d", len(post.Enc.Norms), len(post.Dec.Norms))
	}
	// Upper-triangle weights are never read: zero gradient after backward.
	bt := toyBatch()
	g := engine.NewGraph(1)
	m.Params().ZeroGrad()
	g.Backward(Loss(g, m, bt, 0.1).Loss)
	if w.Grad[0*5+1] != 0 || w.Grad[2*5+4] != 0 || w.Grad[4*5+0] == 0 {
		t.Fatalf("weight gradients: upper %g %g, lower %g", w.Grad[1], w.Grad[14], w.Grad[20])
	}
}

func TestTransparentStartsAsLayerAverage(t *testing.T) {
	c := tinyDeep("transparent", NormPre)
	m := mustNew(t, c).(*Transparent)
	bt := toyBatch()
	g := engine.NewInference()
	enc := m.Encode(g, bt.Src, bt.B, bt.S, Collect{States: true})
	hs := append([]*engine.Tensor{enc.Embedded}, enc.States...)
	avg := g.Zeros(bt.B*bt.S, 8)
	for _, h := range hs {
		for i, v := range h.Data {
			avg.Data[i] += v / float32(len(hs))
		}
	}
	want := m.EncLN.Apply(g, avg)
	for j, mem := range enc.Memories {
		for i := range mem.Data {
			if math.Abs(float64(mem.Data[i]-want.Data[i])) > 1e-4 {
				t.Fatalf("decoder layer %d memory differs from the normalised layer average at %d", j, i)
			}
		}
	}
	if w := m.W.Shape(); w[0] != 2 || w[1] != 5 {
		t.Fatalf("transparent weights %v, want [2 5]", w)
	}
}

func TestDeepConfigValidation(t *testing.T) {
	bad := map[string][]string{
		"decoder layers ≠ blocks": {"decoder_layers=3"},
		"not divisible":           {"encoder_layers=5"},
		"block sum":               {"deep.block_layers=1,2"},
		"context":                 {"deep.context=lstm"},
		"mode":                    {"deep.context_mode=sequence"},
		"fusion":                  {"deep.fusion=concat"},
	}
	for name, set := range bad {
		c := tinyDeep("msc", NormPre)
		if err := c.Override(set); err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err == nil {
			t.Errorf("%s: %v accepted", name, set)
		}
	}
	for _, name := range []string{"msc-6", "msc-18", "msc-36", "msc-54", "msc-72", "deep-pre-36", "deep-post-72", "dlcl-pre-36", "dlcl-post-18", "transparent-36"} {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		c.SrcVocab, c.TgtVocab = 100, 100
		if err := c.Validate(); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
	}
	c, _ := Preset("msc-72")
	if c.Arch != "msc" || c.EncoderLayers != 72 || c.DecoderLayers != 6 || c.DModel != 256 || c.FFN != 512 || c.Heads != 4 || c.EncoderNorm != NormPre {
		t.Errorf("msc-72 preset: %s", c.Summary())
	}
}

func TestDeepSaveLoadRoundTrip(t *testing.T) {
	for _, arch := range []Arch{ArchMSC, ArchDLCL, ArchTransparent} {
		c := tinyDeep(arch, NormPre)
		c.Deep.Fusion = FusionAdd // a non-default option must survive
		m := mustNew(t, c)
		var buf bytes.Buffer
		if err := WriteTo(&buf, m, nil); err != nil {
			t.Fatal(err)
		}
		var meta fileMeta
		ts, err := engine.ReadTensors(&buf, &meta)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := New(meta.Config, 99)
		if err != nil {
			t.Fatal(err)
		}
		if err := SetParams(m2, ts); err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		bt := toyBatch()
		a := Loss(engine.NewInference(), m, bt, 0.1).Loss.Item()
		b := Loss(engine.NewInference(), m2, bt, 0.1).Loss.Item()
		if a != b {
			t.Fatalf("%s: loss %g after reload, %g before", arch, b, a)
		}
	}
}

func TestParamGroup(t *testing.T) {
	for name, want := range map[string]string{
		"encoder.blocks.3.layers.1.fc1.weight": "encoder",
		"encoder.context_gru.weight_ih":        "encoder",
		"encoder.embed_tokens.weight":          "embeddings",
		"decoder.layers.0.context_gate.bias":   "decoder",
		"decoder.output_projection.weight":     "embeddings",
	} {
		if got := ParamGroup(name); got != want {
			t.Errorf("ParamGroup(%q) = %q, want %q", name, got, want)
		}
	}
}
