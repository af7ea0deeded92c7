//go:build !amd64 || purego

package kernels

func DotRowsHalfAVX2(q *float32, dh int, base *uint16, idx *int32, n int, stride int, out *float32, scale float32) {
	panic("kernels: DotRowsHalfAVX2 without amd64")
}

func AxpyRowsHalfAVX2(out *float32, dh int, base *uint16, idx *int32, p *float32, n int, stride int) {
	panic("kernels: AxpyRowsHalfAVX2 without amd64")
}

func HalvesF16C(dst *uint16, src *float32, n int) { panic("kernels: HalvesF16C without amd64") }
