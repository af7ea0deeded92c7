package engine

import (
	"io"

	"github.com/strata-nmt/strata/engine/internal/format"
)

// Tensor files: engine/internal/format holds the layout (magic, version,
// JSON header with the caller's metadata, payloads, CRC-32C) and the
// checks that make a broken or hostile file an error; this file turns its
// records into tensors and back.

// The format's limits are the engine's: a file holds tensors of any rank
// a Tensor has, and int8 weights as QuantizeWeights makes them.
const (
	_ = uint(MaxDims-format.MaxDims) + uint(format.MaxDims-MaxDims)
	_ = uint(WeightQMax-format.Int8Max) + uint(format.Int8Max-WeightQMax)
)

// TensorEntry names one tensor in a file.
type TensorEntry = format.Entry

// ErrNotTensorFile is returned for files that do not start with the magic.
var ErrNotTensorFile = format.ErrNotTensorFile

// WriteTensors writes meta (any JSON-encodable value) and the tensors.
func WriteTensors(w io.Writer, meta any, tensors []*Tensor) error {
	return format.Write(w, format.F32, meta, entriesOf(tensors, nil), func(fw format.Writer) {
		for _, t := range tensors {
			fw.Floats(t.Data)
		}
	})
}

// entriesOf are the header entries of tensors, those with a non-nil qs[i]
// marked int8.
func entriesOf(tensors []*Tensor, qs []*Int8Weights) []format.Entry {
	entries := make([]format.Entry, len(tensors))
	for i, t := range tensors {
		entries[i] = format.Entry{Name: t.Name, Shape: append([]int(nil), t.Shape()...)}
		if qs != nil && qs[i] != nil {
			entries[i].DType = format.DType(format.Int8)
		}
	}
	return entries
}

// ReadTensors reads a file written by WriteTensors or WriteTensorsInt8,
// verifying its checksum. meta receives the JSON metadata (pass nil to
// skip it). Int8 matrices come back dequantized with their Int8 form
// attached.
func ReadTensors(r io.Reader, meta any) ([]*Tensor, error) {
	recs, err := format.Read(r, meta)
	if err != nil {
		return nil, err
	}
	out := make([]*Tensor, len(recs))
	for i, rec := range recs {
		out[i] = tensorOf(rec)
	}
	return out, nil
}

// tensorOf makes a file's tensor a Tensor.
func tensorOf(rec format.Tensor) *Tensor {
	if rec.Format() != format.Int8 {
		t := FromData(rec.Data, rec.Shape...)
		t.Name = rec.Name
		return t
	}
	rows, cols := rec.Shape[0], rec.Shape[1]
	w := NewInt8Weights(rec.Q, rec.Scale, rows, cols)
	t := NewTensor(rows, cols)
	t.Name = rec.Name
	w.Dequantize(t.Data)
	t.SetInt8(w)
	return t
}
