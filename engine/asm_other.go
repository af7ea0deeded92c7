//go:build !amd64 || purego

package engine

func dotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32) {
	panic("engine: dotRowsAVX2 without amd64")
}

func axpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int) {
	panic("engine: axpyRowsAVX2 without amd64")
}
