package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/format"
)

// tensorFileSeeds are small valid tensor files: empty, one scalar-like
// vector, a matrix with metadata, and a 4-D tensor.
func tensorFileSeeds(t testing.TB) [][]byte {
	mk := func(meta any, ts ...*Tensor) []byte {
		var b bytes.Buffer
		if err := WriteTensors(&b, meta, ts); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	v := FromData([]float32{1, -2, 3}, 3)
	v.Name = "v"
	m := FromData([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	m.Name = "encoder.layers.0.fc1.weight"
	q := NewTensor(1, 2, 1, 2)
	q.Name = "q"
	var q8 bytes.Buffer
	if err := WriteTensorsInt8(&q8, map[string]any{"kind": "strata-model"}, []*Tensor{m, v}); err != nil {
		t.Fatal(err)
	}
	return [][]byte{
		q8.Bytes(),
		mk(nil),
		mk(map[string]any{"kind": "x"}, v),
		mk(map[string]any{"kind": "strata-model", "step": 3}, m, v),
		mk(nil, q, FromData([]float32{0}, 1)),
	}
}

// withHeader builds a tensor file with a hand-written JSON header and
// payload, and a correct checksum, so that only the header is hostile.
func withHeader(header string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString(format.Magic)
	binary.Write(&b, binary.LittleEndian, format.Version(format.F32))
	binary.Write(&b, binary.LittleEndian, uint32(len(header)))
	b.WriteString(header)
	b.Write(payload)
	binary.Write(&b, binary.LittleEndian, format.Checksum(b.Bytes()))
	return b.Bytes()
}

// fixChecksum rewrites the last 4 bytes of a tensor file with the checksum
// of the rest, so that fuzzers get past the checksum to the contents.
func fixChecksum(b []byte) {
	if len(b) >= 4 {
		binary.LittleEndian.PutUint32(b[len(b)-4:], format.Checksum(b[:len(b)-4]))
	}
}

// FuzzReadTensors (fixCRC: with a correct checksum, to reach past it): any bytes give tensors or an error, never a panic or an
// allocation the file cannot back; what is read writes back identically.
func FuzzReadTensors(f *testing.F) {
	for _, s := range tensorFileSeeds(f) {
		f.Add(s, false)
	}
	f.Add(withHeader(`{"tensors":[{"name":"big","shape":[1048576,1048576]}]}`, nil), false)
	f.Add([]byte(format.Magic), true)
	f.Fuzz(func(t *testing.T, b []byte, fixCRC bool) {
		if fixCRC {
			fixChecksum(b)
		}
		var meta json.RawMessage
		ts, err := ReadTensors(bytes.NewReader(b), &meta)
		if err != nil {
			if ts != nil {
				t.Fatalf("error %v with %d tensors", err, len(ts))
			}
			return
		}
		n := 0
		for _, x := range ts {
			if len(x.Data) != x.Size() {
				t.Fatalf("%s: %d values for shape %v", x.Name, len(x.Data), x.Shape())
			}
			n += x.Size()
		}
		if 4*n > len(b) {
			t.Fatalf("%d values from a %d-byte file", n, len(b))
		}
		var out bytes.Buffer
		if err := WriteTensors(&out, meta, ts); err != nil {
			t.Fatalf("rewrite: %v", err)
		}
		back, err := ReadTensors(&out, nil)
		if err != nil || len(back) != len(ts) {
			t.Fatalf("re-read of a rewritten file: %v", err)
		}
	})
}
