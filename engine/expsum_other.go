//go:build !amd64

package engine

const haveExpSumsAsm = false

func expSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64) {
	panic("engine: expSumsAVX2 without amd64")
}
