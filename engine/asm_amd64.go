//go:build !purego

package engine

// Declarations of the gathered-rows kernels (rows_amd64.s), guarded by
// isa.go; asm_other.go stubs them elsewhere.

// dotRowsAVX2 and axpyRowsAVX2 are in rows_amd64.s.
//
//go:noescape
func dotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32)

//go:noescape
func axpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int)
