package engine

import (
	"io"

	"github.com/strata-nmt/strata/engine/internal/format"
)

// WriteTensorsInt8 writes meta and the tensors with every matrix (2-D
// tensor) quantized per row (its Int8 form when it has one), vectors in
// float32: about a quarter of the float32 file. ReadTensors reads it back
// with the matrices dequantized and their Int8 form attached.
func WriteTensorsInt8(w io.Writer, meta any, tensors []*Tensor) error {
	qs := make([]*Int8Weights, len(tensors))
	for i, t := range tensors {
		if t.ndim == 2 {
			if qs[i] = t.Int8(); qs[i] == nil || qs[i].Q == nil {
				qs[i] = QuantizeWeights(t.Data, t.shape[0], t.shape[1])
			}
		}
	}
	return format.Write(w, format.Int8, meta, entriesOf(tensors, qs), func(fw format.Writer) {
		for i, t := range tensors {
			if q := qs[i]; q != nil {
				fw.Int8(q.Scale, q.Q)
			} else {
				fw.Floats(t.Data)
			}
		}
	})
}
