package engine

import (
	"fmt"
	"testing"
)

// BenchmarkAttentionStep is one Attention op forward and backward at the
// zero-shot recipe's shape (128 sentences, model width 128, 4 heads of
// 32), for sentence lengths that are and are not multiples of the tiles'
// 8 columns, as a training batch's are: encoder self-attention (padded
// keys) and decoder self-attention (causal). ns/op is the whole op; the
// engine's own threads are off (one core).
func BenchmarkAttentionStep(b *testing.B) {
	const sents, d, heads = 128, 128, 4
	for _, t := range []int{17, 24, 29, 32, 45} {
		for _, causal := range []bool{false, true} {
			name := fmt.Sprintf("T%d/encoder", t)
			if causal {
				name = fmt.Sprintf("T%d/decoder", t)
			}
			b.Run(name, func(b *testing.B) {
				r := NewRNG(5)
				qkv := param(r, "qkv", sents*t, 3*d)
				pad := make([]bool, sents*t)
				for s := 0; s < sents; s += 3 { // a third of the sentences shorter
					pad[s*t+t-1], pad[s*t+t-2] = true, true
				}
				o := AttnOptions{Heads: heads, KeyPad: pad, Causal: causal}
				g := NewGraph(1)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					g.Reset()
					ctx, _ := g.Attention(Cols{qkv, 0}, Cols{qkv, d}, Cols{qkv, 2 * d}, sents, t, t, o)
					g.Backward(g.Sum(ctx))
				}
			})
		}
	}
}
