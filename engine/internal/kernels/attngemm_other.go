//go:build !amd64 || purego

package kernels

func AttnTile2x32(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool) {
	panic("kernels: AttnTile2x32 without amd64")
}

func AttnTile2x8(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool) {
	panic("kernels: AttnTile2x8 without amd64")
}

func AttnTile6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool) {
	panic("kernels: AttnTile6x16 without amd64")
}

func AttnTile6x32AVX512(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool) {
	panic("kernels: AttnTile6x32AVX512 without amd64")
}
