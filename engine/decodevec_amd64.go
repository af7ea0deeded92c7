//go:build !purego

package engine

// rowMaxAVX2, subScalarAVX2, mulSubAVX2, reluAVX2, biasReluAVX2 and
// reluGradAVX2 are in decodevec_amd64.s.
//
//go:noescape
func rowMaxAVX2(x *float32, n int, start float32) float32

//go:noescape
func subScalarAVX2(x *float32, n int, c float32)

//go:noescape
func reluAVX2(x *float32, n int)

//go:noescape
func mulSubAVX2(x *float32, n int, mul, sub float32)

//go:noescape
func biasReluAVX2(x, bias *float32, n int)

//go:noescape
func reluGradAVX2(dy, y *float32, n int)

//go:noescape
func scaleToAVX2(dst, src *float32, n int, a float32)
