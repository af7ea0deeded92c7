package engine

// rowMaxAVX2 and subScalarAVX2 are in rowmax_amd64.s.
//
//go:noescape
func rowMaxAVX2(x *float32, n int, start float32) float32

//go:noescape
func subScalarAVX2(x *float32, n int, c float32)
