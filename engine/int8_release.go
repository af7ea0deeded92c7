package engine

import "fmt"

// ReleaseFloat32 gives up the float32 values of weight matrices that a
// model decoding in int8 only ever multiplies with: each is quantized
// (unless a model file or an earlier product already did), then its
// float32 data, that of the parameters that are views of it (fused
// projections) and the row-major copy of its int8 form are dropped, so
// that the matrix is held once, as the packed int8 panels the kernels
// read, instead of as float32 plus int8 (about 5 bytes per weight instead
// of 1). It returns the bytes of float32 data released.
//
// From then on the weights are for inference only: every inference graph
// multiplies with their int8 form, float32 graphs included (Linear takes
// the int8 path for a weight without float32 data), and a recording graph
// panics. Only weights used by Linear, LinearReLU and OutputLinear may be
// released; anything reading Data directly (an embedding lookup) must keep
// it.
func (p *Params) ReleaseFloat32(ws []*Tensor) int {
	freed := 0
	for _, w := range ws {
		if w.Data == nil {
			continue
		}
		if w.ndim != 2 {
			panic(fmt.Sprintf("engine.ReleaseFloat32: %s has shape %v, want a matrix", w.Name, w.Shape()))
		}
		q := int8Of(w)
		q.Q = nil
		freed += 4 * len(w.Data)
		w.Data, w.Grad = nil, nil
		w.WeightsChanged()
		for v, at := range p.views {
			if at.whole == w {
				v.Data, v.Grad = nil, nil
			}
		}
	}
	return freed
}

// productInt8 reports whether a matrix product with weight w runs in int8:
// on an int8 inference graph, and on any inference graph for a weight
// whose float32 values were released (Params.ReleaseFloat32).
func (g *Graph) productInt8(w *Tensor) bool {
	if g.record {
		if w.Data == nil {
			panic(fmt.Sprintf("engine: training with %s, whose float32 values were released for int8 inference", w.Name))
		}
		return false
	}
	return g.compute.Products == FormatInt8 || w.Data == nil
}
