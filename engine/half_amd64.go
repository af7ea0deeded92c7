//go:build !purego

package engine

//go:noescape
func dotRowsHalfAVX2(q *float32, dh int, base *uint16, idx *int32, n int, stride int, out *float32, scale float32)

//go:noescape
func axpyRowsHalfAVX2(out *float32, dh int, base *uint16, idx *int32, p *float32, n int, stride int)

//go:noescape
func halvesF16C(dst *uint16, src *float32, n int)
