//go:build !amd64 || purego

package engine

func rowMaxAVX2(x *float32, n int, start float32) float32 {
	panic("engine: rowMaxAVX2 without amd64")
}

func subScalarAVX2(x *float32, n int, c float32) { panic("engine: subScalarAVX2 without amd64") }

func reluAVX2(x *float32, n int) { panic("engine: reluAVX2 without amd64") }

func mulSubAVX2(x *float32, n int, mul, sub float32) { panic("engine: mulSubAVX2 without amd64") }

func biasReluAVX2(x, bias *float32, n int) { panic("engine: biasReluAVX2 without amd64") }

func reluGradAVX2(dy, y *float32, n int) { panic("engine: reluGradAVX2 without amd64") }

func scaleToAVX2(dst, src *float32, n int, a float32) { panic("engine: scaleToAVX2 without amd64") }
