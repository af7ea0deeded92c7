package engine

import "github.com/strata-nmt/strata/engine/internal/kernels"

// Attention's small products: register tiles in engine/internal/kernels
// (attngemm.go), traced here as the products the model makes.

// band is the part of a product a causal mask leaves (kernels.Band).
type (
	band     = kernels.Band
	bandKind = kernels.BandKind
)

const (
	bandNone      = kernels.BandNone
	bandCols      = kernels.BandCols
	bandInner     = kernels.BandInner
	bandInnerFrom = kernels.BandInnerFrom
)

// attnGemm computes C = alpha·A·B (+ C when acc) for C m×n, B k×n with rows
// ldb apart and unit column stride, C with rows ldc apart, and
// A(i,p) = a[i·ars + p·acs]. With bd.Kind == bandCols the columns a row
// does not need are left as they were (they may hold anything).
func attnGemm(m, n, k int, alpha float32, a []float32, ars, acs int, b []float32, ldb int,
	c []float32, ldc int, acc bool, bd band) {
	traceGemm(GemmCall{acs != 1, false, m, n, k, max(ars, acs), ldb, ldc, false})
	kernels.AttnProduct(m, n, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
}

// attnGemmPadded is attnGemm for a product of n columns computed over np
// >= n (attention's scores in rows padded to 8: the extra columns come
// from B's zero padding and are never read). It is traced as the n-column
// product the model makes, which the step's FLOP count and the floor
// replay count.
func attnGemmPadded(m, n, np, k int, alpha float32, a []float32, ars, acs int, b []float32, ldb int,
	c []float32, ldc int, acc bool, bd band) {
	traceGemm(GemmCall{acs != 1, false, m, n, k, max(ars, acs), ldb, ldc, false})
	kernels.AttnProduct(m, np, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
}
