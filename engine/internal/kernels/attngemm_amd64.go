//go:build !purego

package kernels

// Declarations of attngemm_amd64.s; attngemm_other.go stubs them elsewhere.

//go:noescape
func AttnTile2x32(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool)

//go:noescape
func AttnTile2x8(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool)

//go:noescape
func AttnTile6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool)

// AttnTile6x32AVX512 is in attngemm_avx512_amd64.s.
//
//go:noescape
func AttnTile6x32AVX512(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool)
