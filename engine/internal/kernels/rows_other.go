//go:build !amd64 || purego

package kernels

func DotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32) {
	panic("kernels: DotRowsAVX2 without amd64")
}

func AxpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int) {
	panic("kernels: AxpyRowsAVX2 without amd64")
}
