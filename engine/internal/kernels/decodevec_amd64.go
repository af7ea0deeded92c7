//go:build !purego

package kernels

// Declarations of decodevec_amd64.s; decodevec_other.go stubs them
// elsewhere.

// RowMaxAVX2, SubScalarAVX2, MulSubAVX2, ReluAVX2, BiasReluAVX2 and
// ReluGradAVX2 are in decodevec_amd64.s.
//
//go:noescape
func RowMaxAVX2(x *float32, n int, start float32) float32

//go:noescape
func SubScalarAVX2(x *float32, n int, c float32)

//go:noescape
func ReluAVX2(x *float32, n int)

//go:noescape
func MulSubAVX2(x *float32, n int, mul, sub float32)

//go:noescape
func BiasReluAVX2(x, bias *float32, n int)

//go:noescape
func ReluGradAVX2(dy, y *float32, n int)

//go:noescape
func ScaleToAVX2(dst, src *float32, n int, a float32)
