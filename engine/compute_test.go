package engine

import (
	"strings"
	"testing"
)

// computeOf is the float32 or the int8 compute type, both with a float32
// cache (the tests that take it compare products only).
func computeOf(int8 bool) ComputeType {
	if int8 {
		return ComputeType{Products: FormatInt8, Cache: FormatF32}
	}
	return Float32Compute
}

// TestResolveKeepsTheFilesFormat: a model file stored in int8 decodes in
// int8, with a float16 cache and 7-bit activations, unless the request
// names another type; a float32 file, or none, decodes in float32.
func TestResolveKeepsTheFilesFormat(t *testing.T) {
	for _, c := range []struct {
		requested ComputeType
		file      Format
		want      ComputeType
	}{
		{ComputeType{}, FormatInt8, Int8Compute},
		{ComputeType{}, FormatF32, Float32Compute},
		{ComputeType{}, FormatAuto, Float32Compute},
		{ComputeType{Products: FormatF32}, FormatInt8, Float32Compute},
		{ComputeType{Products: FormatInt8}, FormatF32, Int8Compute},
		{ComputeType{Cache: FormatF32, Int8Bits: 8}, FormatInt8, ComputeType{FormatInt8, FormatF32, 8}},
		{ComputeType{Cache: FormatF16, Int8Bits: 8}, FormatF32, ComputeType{FormatF32, FormatF16, 0}},
	} {
		if got := ResolveComputeType(c.requested, c.file); got != c.want {
			t.Errorf("ResolveComputeType(%+v, %v) = %+v, want %+v", c.requested, c.file, got, c.want)
		}
	}
}

// TestParseComputeType reads the flags' values and names the accepted ones
// in its errors.
func TestParseComputeType(t *testing.T) {
	got, err := ParseComputeType("int8", "float32", 8)
	if want := (ComputeType{FormatInt8, FormatF32, 8}); err != nil || got != want {
		t.Errorf("ParseComputeType(int8, float32, 8) = %+v, %v; want %+v", got, err, want)
	}
	if got, err := ParseComputeType("", "", 0); err != nil || got != (ComputeType{}) {
		t.Errorf("ParseComputeType of nothing = %+v, %v; want the zero value", got, err)
	}
	for _, c := range []struct {
		p, c string
		bits int
		want string
	}{
		{"float16", "", 0, "[float32 int8]"}, // not a product format
		{"", "int8", 0, "[float32 float16]"}, // not a cache format
		{"int8", "", 6, "[7 8]"},
	} {
		if _, err := ParseComputeType(c.p, c.c, c.bits); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseComputeType(%q, %q, %d): error %v, want one listing %s", c.p, c.c, c.bits, err, c.want)
		}
	}
}

// TestSetCompute: one call sets products, cache and width; the zero graph
// computes in float32 with a float32 cache; recording graphs never
// multiply in int8.
func TestSetCompute(t *testing.T) {
	g := NewInference()
	if g.ComputeInt8() || g.HalfCache() || g.Compute() != Float32Compute {
		t.Fatalf("new graph: %v", g.Compute())
	}
	g.SetCompute(ComputeType{Products: FormatInt8, Int8Bits: 8})
	if !g.ComputeInt8() || !g.HalfCache() || g.Int8Bits() != 8 {
		t.Fatalf("after SetCompute(int8, 8 bits): %v", g.Compute())
	}
	if s := g.Compute().String(); s != "int8 (float16 cache, 8-bit activations)" {
		t.Errorf("String = %q", s)
	}
	tr := NewGraph(1)
	tr.SetCompute(Int8Compute)
	if tr.ComputeInt8() {
		t.Error("a recording graph multiplies in int8")
	}
}

// TestFormatTable: the facts each format's users read.
func TestFormatTable(t *testing.T) {
	for _, c := range []struct {
		f     Format
		bytes int
	}{{FormatF32, 4}, {FormatF16, 2}, {FormatInt8, 1}} {
		if c.f.Bytes() != c.bytes || c.f.Scales() == "" {
			t.Errorf("%v: %d bytes, scales %q", c.f, c.f.Bytes(), c.f.Scales())
		}
	}
	if FormatInt8.Kernel(7) != Int8KernelFor(7) || FormatF32.Kernel(0) != F32Kernel() || FormatF16.Kernel(0) != "" {
		t.Error("Format.Kernel does not name the kernels in use")
	}
}
