//go:build !amd64

package engine

func rowMaxAVX2(x *float32, n int, start float32) float32 {
	panic("engine: rowMaxAVX2 without amd64")
}

func subScalarAVX2(x *float32, n int, c float32) { panic("engine: subScalarAVX2 without amd64") }

func reluAVX2(x *float32, n int) { panic("engine: reluAVX2 without amd64") }
