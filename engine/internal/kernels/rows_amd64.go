//go:build !purego

package kernels

// Declarations of the gathered-rows kernels (rows_amd64.s);
// rows_other.go stubs them elsewhere. GatherScores and GatherSum guard
// them (rows.go).

// DotRowsAVX2 and AxpyRowsAVX2 are in rows_amd64.s.
//
//go:noescape
func DotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32)

//go:noescape
func AxpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int)
