//go:build !amd64 || purego

package engine

func dotRowsHalfAVX2(q *float32, dh int, base *uint16, idx *int32, n int, stride int, out *float32, scale float32) {
	panic("engine: dotRowsHalfAVX2 without amd64")
}

func axpyRowsHalfAVX2(out *float32, dh int, base *uint16, idx *int32, p *float32, n int, stride int) {
	panic("engine: axpyRowsHalfAVX2 without amd64")
}

func halvesF16C(dst *uint16, src *float32, n int) { panic("engine: halvesF16C without amd64") }
