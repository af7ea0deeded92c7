//go:build !purego

package kernels

// Declarations of half_amd64.s (the float16 cache's conversions and
// gathered products); half_other.go stubs them elsewhere.

//go:noescape
func DotRowsHalfAVX2(q *float32, dh int, base *uint16, idx *int32, n int, stride int, out *float32, scale float32)

//go:noescape
func AxpyRowsHalfAVX2(out *float32, dh int, base *uint16, idx *int32, p *float32, n int, stride int)

//go:noescape
func HalvesF16C(dst *uint16, src *float32, n int)
