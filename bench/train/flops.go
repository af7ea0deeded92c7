package main

// stepFLOP is the floating-point work of one training step's matrix
// products, counted from the model's shape (d = model width, f = FFN width,
// V = vocabulary, L encoder and L decoder layers, B sentences of S source
// and T target tokens), in multiply-adds (MAC) first:
//
//	encoder layer:  B·S·(4d² + 2df)            Q,K,V and output projections, FFN
//	              + 2·B·S²·d                   scores Q·Kᵀ and context P·V, all heads
//	decoder layer:  B·T·(6d² + 2df)            self Q,K,V,out; cross Q,out; FFN
//	              + B·S·2d²                    cross K,V of the encoder output
//	              + 2·B·T²·d + 2·B·T·S·d       self and cross attention products
//	output layer:   B·T·d·V                    logits (tied embedding)
//
// forward FLOP = 2·MAC; backward makes two products of the same size per
// forward product (the input's and the weight's gradient; for attention
// dP, dV and dQ, dK), so a step is 3 × forward = 6·MAC. Attention is
// counted over the full T×T square, masked half included, as a dense
// implementation computes it. Embedding look-ups, norms, softmaxes and the
// optimiser are not matrix products and are not counted.
func stepFLOP(o options) float64 {
	d, f, v := float64(o.dim), float64(o.ffn), float64(o.vocab)
	b, s, t, l := float64(o.batch), float64(o.srcLen), float64(o.tgtLen), float64(o.layers)
	enc := b*s*(4*d*d+2*d*f) + 2*b*s*s*d
	dec := b*t*(6*d*d+2*d*f) + b*s*2*d*d + 2*b*t*t*d + 2*b*t*s*d
	out := b * t * d * v
	return 6 * (l*(enc+dec) + out)
}
