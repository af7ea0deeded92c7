package engine

import (
	"testing"
)

// Throughput of each fused op, forward and backward, on the shapes of the
// throughput model's training step (2048 tokens, d=256, ffn=1024, 4 heads,
// 64 sentences × 32 tokens, vocabulary 8000). Each iteration resets the
// graph, runs the op and backward from a fixed output gradient; Melem/s
// counts the op's output elements.
func BenchmarkOps(b *testing.B) {
	const n, d, ffn, v, bs, t = 2048, 256, 1024, 8000, 64, 32
	r := NewRNG(4)
	p := func(shape ...int) *Tensor { return param(r, "", shape...) }
	x, y := p(n, d), p(n, d)
	wide := p(n, ffn)
	gain, bias := p(d), p(d)
	qkv := p(n, 3*d)
	logits := p(n, v)
	emb := p(v, d)
	ids := make([]int32, n)
	targets := make([]int32, n)
	for i := range ids {
		ids[i] = int32(4 + (i*131)%(v-4))
		targets[i] = int32(4 + (i*37)%(v-4))
	}
	ops := []struct {
		name string
		run  func(g *Graph) *Tensor
	}{
		{"LayerNorm", func(g *Graph) *Tensor { return g.LayerNorm(x, gain, bias) }},
		{"Add", func(g *Graph) *Tensor { return g.Add(x, y) }},
		{"Dropout", func(g *Graph) *Tensor { return g.Dropout(x, 0.1) }},
		{"ReLU", func(g *Graph) *Tensor { return g.ReLU(wide) }},
		{"Softmax", func(g *Graph) *Tensor { return g.Softmax(x) }},
		{"Attention", func(g *Graph) *Tensor {
			ctx, _ := g.Attention(Cols{T: qkv}, Cols{T: qkv, Col: d}, Cols{T: qkv, Col: 2 * d}, bs, t, t,
				AttnOptions{Heads: 4, Causal: true})
			return ctx
		}},
		{"Embed+AddPositions", func(g *Graph) *Tensor { return g.AddPositions(g.Embed(emb, ids, 16), ids, t, 0, 0) }},
		{"LabelSmoothedCE", func(g *Graph) *Tensor { return g.LabelSmoothedCE(logits, targets, 0.1, 0).Loss }},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			g := NewGraph(1)
			var dy []float32
			elems := 0
			b.ReportAllocs()
			for i := 0; i < b.N+1; i++ {
				if i == 1 { // the first iteration warms the arena
					b.ResetTimer()
				}
				g.Reset()
				out := op.run(g)
				if dy == nil {
					dy = benchData(out.Size())
					elems = out.Size()
					if op.name == "LabelSmoothedCE" {
						elems = logits.Size()
					}
				}
				g.BackwardWith(out, dy)
			}
			b.ReportMetric(float64(elems)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

// The ensemble's per-step combination against the LogSoftmax every member
// already pays, on a beam-5 step of 32 sentences over a 10,613-token
// vocabulary, inference graph.
func BenchmarkEnsembleStep(b *testing.B) {
	const rows, v = 160, 10613
	r := NewRNG(5)
	a, c := param(r, "", rows, v), param(r, "", rows, v)
	g := NewInference()
	b.Run("LogSoftmax", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			g.Reset()
			g.LogSoftmax(a)
		}
	})
	b.Run("LogMeanExp2", func(b *testing.B) {
		in := NewInference()
		la, lc := in.LogSoftmax(a), in.LogSoftmax(c)
		for i := 0; i < b.N; i++ {
			g.Reset()
			g.LogMeanExp(la, lc)
		}
	})
}
