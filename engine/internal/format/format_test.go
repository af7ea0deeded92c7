package format

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestTable: the facts each format's users read, and the names the flags
// accept.
func TestTable(t *testing.T) {
	for _, c := range []struct {
		f               Format
		bytes           int
		products, cache bool
		defaultCache    Format
	}{
		{F32, 4, true, true, F32},
		{F16, 2, false, true, Auto},
		{Int8, 1, true, false, F16},
	} {
		if c.f.Bytes() != c.bytes || c.f.Products() != c.products || c.f.Cache() != c.cache || c.f.DefaultCache() != c.defaultCache || c.f.Scales() == "" {
			t.Errorf("%v: %d bytes, products %v, cache %v, default cache %v, scales %q", c.f, c.f.Bytes(), c.f.Products(), c.f.Cache(), c.f.DefaultCache(), c.f.Scales())
		}
	}
	if got := Names(Format.Products); !slices.Equal(got, []string{"float32", "int8"}) {
		t.Errorf("product formats %v", got)
	}
	if f, err := Parse("float16", "cache", Format.Cache); err != nil || f != F16 {
		t.Errorf("Parse(float16) = %v, %v", f, err)
	}
	if _, err := Parse("float16", "compute", Format.Products); err == nil || !strings.Contains(err.Error(), `compute type "float16": must be one of [float32 int8]`) {
		t.Errorf("Parse(float16) as a product format: %v", err)
	}
}

// Files are stored as float32 (version 1) or int8 (version 2); Stored
// reads which from the header.
func TestStoredFormat(t *testing.T) {
	if Version(F32) != 1 || Version(Int8) != 2 {
		t.Fatalf("versions %d, %d", Version(F32), Version(Int8))
	}
	h := Header{Tensors: []Entry{{Name: "b", Shape: []int{2}}}}
	if Stored(h) != F32 {
		t.Error("a float32 file stored as", Stored(h))
	}
	h.Tensors = append(h.Tensors, Entry{Name: "w", Shape: []int{2, 2}, DType: DType(Int8)})
	if Stored(h) != Int8 {
		t.Error("a file with an int8 matrix stored as", Stored(h))
	}
}

// Write and Read round-trip float32 and int8 payloads, and Read refuses
// int8 values beyond Int8Max, int8 tensors that are not matrices and
// unknown data types, naming the tensor.
func TestWriteRead(t *testing.T) {
	write := func(entries []Entry, body func(Writer)) []byte {
		var b bytes.Buffer
		if err := Write(&b, Int8, map[string]int{"step": 3}, entries, body); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	q := []int8{-64, 0, 5, 64, 1, -1}
	good := write([]Entry{{Name: "b", Shape: []int{3}}, {Name: "w", Shape: []int{2, 3}, DType: "int8"}}, func(w Writer) {
		w.Floats([]float32{1, -2, 0.5})
		w.Int8([]float32{0.25, 2}, q)
	})
	var meta map[string]int
	ts, err := Read(bytes.NewReader(good), &meta)
	if err != nil || meta["step"] != 3 || len(ts) != 2 {
		t.Fatalf("Read: %v, meta %v, %d tensors", err, meta, len(ts))
	}
	if !slices.Equal(ts[0].Data, []float32{1, -2, 0.5}) || !slices.Equal(ts[1].Q, q) || !slices.Equal(ts[1].Scale, []float32{0.25, 2}) || ts[1].Format() != Int8 {
		t.Errorf("read back %+v", ts)
	}
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"int8 beyond 64", write([]Entry{{Name: "w", Shape: []int{1, 1}, DType: "int8"}}, func(w Writer) { w.Int8([]float32{1}, []int8{65}) }), "int8 tensor w holds 65, outside ±64"},
		{"int8 vector", withHeaderV2(`{"tensors":[{"name":"v","shape":[4],"dtype":"int8"}]}`, make([]byte, 8)), "int8 tensor v has shape [4] (need a matrix)"},
		{"bfloat16", withHeader(`{"tensors":[{"name":"x","shape":[1],"dtype":"bfloat16"}]}`, make([]byte, 4)), `x has data type "bfloat16"`},
		{"rank 5", withHeader(`{"tensors":[{"name":"x","shape":[1,1,1,1,1]}]}`, make([]byte, 4)), "x has shape [1 1 1 1 1]"},
		{"version 3", func() []byte { b := withHeaderV2(`{}`, nil); b[len(Magic)] = 3; fixChecksum(b); return b }(), "version 3"},
	} {
		if _, err := Read(bytes.NewReader(c.file), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}
