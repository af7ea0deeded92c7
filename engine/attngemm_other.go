//go:build !amd64 || purego

package engine

func attnTile2x32(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool) {
	panic("engine: attnTile2x32 without amd64")
}

func attnTile2x8(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool) {
	panic("engine: attnTile2x8 without amd64")
}

func attnTile6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool) {
	panic("engine: attnTile6x16 without amd64")
}

func attnTile6x32AVX512(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool) {
	panic("engine: attnTile6x32AVX512 without amd64")
}
