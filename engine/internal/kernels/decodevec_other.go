//go:build !amd64 || purego

package kernels

func RowMaxAVX2(x *float32, n int, start float32) float32 {
	panic("kernels: RowMaxAVX2 without amd64")
}

func SubScalarAVX2(x *float32, n int, c float32) { panic("kernels: SubScalarAVX2 without amd64") }

func ReluAVX2(x *float32, n int) { panic("kernels: ReluAVX2 without amd64") }

func MulSubAVX2(x *float32, n int, mul, sub float32) { panic("kernels: MulSubAVX2 without amd64") }

func BiasReluAVX2(x, bias *float32, n int) { panic("kernels: BiasReluAVX2 without amd64") }

func ReluGradAVX2(dy, y *float32, n int) { panic("kernels: ReluGradAVX2 without amd64") }

func ScaleToAVX2(dst, src *float32, n int, a float32) { panic("kernels: ScaleToAVX2 without amd64") }
