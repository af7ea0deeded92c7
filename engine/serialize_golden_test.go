package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"testing"
)

// goldenTensors are a small model's parameters with fixed values: matrices
// (quantized in int8 files), a vector, a 3-D and a 4-D tensor, values of
// both signs and magnitudes from 1e-3 to 1e2.
func goldenTensors() []*Tensor {
	mk := func(name string, shape ...int) *Tensor {
		t := NewTensor(shape...)
		t.Name = name
		for i := range t.Data {
			t.Data[i] = float32(math.Sin(float64(3*i+len(name)))) * float32(math.Pow(10, float64(i%6)-3))
		}
		return t
	}
	return []*Tensor{
		mk("encoder.embed.weight", 7, 5),
		mk("encoder.layers.0.fc1.weight", 3, 9),
		mk("encoder.layers.0.fc1.bias", 3),
		mk("cube", 2, 3, 2),
		mk("q", 1, 2, 1, 2),
	}
}

// The bytes of each file format are pinned: a file written now is the
// file earlier strata wrote for the same tensors and metadata, so that
// models and checkpoints keep their fingerprints across versions; and a
// file read back and written again in its format is the same file.
func TestTensorFilesAreByteStable(t *testing.T) {
	meta := map[string]any{"kind": "strata-model", "config": map[string]any{"d_model": 5}, "step": 42}
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
		want  string
	}{
		{"float32", func(b *bytes.Buffer) error { return WriteTensors(b, meta, goldenTensors()) }, "a9925c02f4c752c51720a43e80b9b5cf995d1d8de02b85e7e78ab3121e6987e7"},
		{"int8", func(b *bytes.Buffer) error { return WriteTensorsInt8(b, meta, goldenTensors()) }, "4b18f4696eb138dc12ca585b18b5c827033d66729b57741b2196babd3b1297fb"},
		{"empty", func(b *bytes.Buffer) error { return WriteTensors(b, nil, nil) }, "297691d4bf5b4b48cb57f69f01c1032f567c6358cd20e7788b7d547679fdde23"},
	} {
		var b bytes.Buffer
		if err := c.write(&b); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b.Bytes())
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("%s file: sha256 %s, want %s", c.name, got, c.want)
		}
		var m any
		ts, err := ReadTensors(bytes.NewReader(b.Bytes()), &m)
		if err != nil {
			t.Fatalf("%s file: %v", c.name, err)
		}
		var again bytes.Buffer
		if c.name == "int8" {
			err = WriteTensorsInt8(&again, m, ts)
		} else {
			err = WriteTensors(&again, m, ts)
		}
		if err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
			t.Errorf("%s file read and written again: %d bytes (%v), want the %d read", c.name, again.Len(), err, b.Len())
		}
	}
}
