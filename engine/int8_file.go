package engine

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// Quantized tensor files (version 2 of the format in serialize.go): the
// same layout, with entries marked "dtype": "int8" stored as their row
// scales (float32, one per row) followed by the row-major int8 values
// (see Int8Weights), padded with zeros to a multiple of 4 bytes. Version 1
// files (all float32) read as before.
const (
	fileVersionInt8 = 2
	dtypeInt8       = "int8"
)

// WriteTensorsInt8 writes meta and the tensors with every matrix (2-D
// tensor) quantized per row (its Int8 form when it has one), vectors in
// float32: about a quarter of the float32 file. ReadTensors reads it back
// with the matrices dequantized and their Int8 form attached.
func WriteTensorsInt8(w io.Writer, meta any, tensors []*Tensor) error {
	entries := make([]TensorEntry, len(tensors))
	qs := make([]*Int8Weights, len(tensors))
	for i, t := range tensors {
		entries[i] = TensorEntry{Name: t.Name, Shape: append([]int(nil), t.Shape()...)}
		if t.ndim == 2 {
			entries[i].DType = dtypeInt8
			if qs[i] = t.Int8(); qs[i] == nil || qs[i].Q == nil {
				qs[i] = QuantizeWeights(t.Data, t.shape[0], t.shape[1])
			}
		}
	}
	return writeTensorFile(w, fileVersionInt8, meta, entries, func(bw *bufio.Writer) {
		for i, t := range tensors {
			q := qs[i]
			if q == nil {
				writeFloats(bw, t.Data)
				continue
			}
			writeFloats(bw, q.Scale)
			for _, v := range q.Q {
				bw.WriteByte(byte(v))
			}
			bw.Write(make([]byte, pad4(len(q.Q))))
		}
	})
}

func pad4(n int) int { return (4 - n%4) % 4 }

// readInt8Tensor reads an int8 entry: its scales, then its values.
func readInt8Tensor(br io.Reader, e TensorEntry, n int) (*Tensor, error) {
	if len(e.Shape) != 2 {
		return nil, fmt.Errorf("corrupt tensor file: int8 tensor %s has shape %v (need a matrix)", e.Name, e.Shape)
	}
	rows, cols := e.Shape[0], e.Shape[1]
	// The shape comes from the file: ReadAll grows with the bytes that
	// arrive, so a shape claiming more than the file holds fails as
	// truncated before anything of its size is allocated.
	size := 4*rows + n + pad4(n)
	buf, err := io.ReadAll(io.LimitReader(br, int64(size)))
	if err == nil && len(buf) != size {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, truncated(fmt.Errorf("reading %s (%d values): %w", e.Name, n, err))
	}
	scale := make([]float32, rows)
	for r := range scale {
		scale[r] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*r:]))
	}
	q := make([]int8, n)
	for i, b := range buf[4*rows : 4*rows+n] {
		q[i] = int8(b)
		if q[i] < -WeightQMax || q[i] > WeightQMax {
			return nil, fmt.Errorf("corrupt tensor file: int8 tensor %s holds %d, outside ±%d", e.Name, q[i], WeightQMax)
		}
	}
	w := NewInt8Weights(q, scale, rows, cols)
	t := NewTensor(rows, cols)
	t.Name = e.Name
	w.Dequantize(t.Data)
	t.SetInt8(w)
	return t, nil
}
