package engine

// rowMaxAVX2, subScalarAVX2 and reluAVX2 are in decodevec_amd64.s.
//
//go:noescape
func rowMaxAVX2(x *float32, n int, start float32) float32

//go:noescape
func subScalarAVX2(x *float32, n int, c float32)

//go:noescape
func reluAVX2(x *float32, n int)
