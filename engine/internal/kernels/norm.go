package kernels

// Layer norm's row arithmetic: AVX2 assembly (norm_amd64.s) where the CPU
// has it, else the Go references, which give the same bits (no fused
// multiply-adds; the same partial sums in the same order).

// Sum4 adds xs (len a multiple of 4) into four partial sums, element j to
// s[j mod 4] (layer norm's mean: one accumulator made the sum
// latency-bound).
func Sum4(xs []float32, s *[4]float64) {
	if avx2 && len(xs) > 0 {
		Sum4AVX2(&xs[0], len(xs), s)
		return
	}
	Sum4Go(xs, s)
}

// Sum4Go is Sum4 in Go.
func Sum4Go(xs []float32, s *[4]float64) {
	for j := 0; j+3 < len(xs); j += 4 {
		s[0] += float64(xs[j])
		s[1] += float64(xs[j+1])
		s[2] += float64(xs[j+2])
		s[3] += float64(xs[j+3])
	}
}

// Sqdev4 adds the squared deviations from mean of xs (len a multiple of
// 4) into four partial sums as Sum4 does (layer norm's variance).
func Sqdev4(xs []float32, mean float64, s *[4]float64) {
	if avx2 && len(xs) > 0 {
		Sqdev4AVX2(&xs[0], len(xs), mean, s)
		return
	}
	Sqdev4Go(xs, mean, s)
}

// Sqdev4Go is Sqdev4 in Go.
func Sqdev4Go(xs []float32, mean float64, s *[4]float64) {
	for j := 0; j+3 < len(xs); j += 4 {
		d0, d1, d2, d3 := float64(xs[j])-mean, float64(xs[j+1])-mean, float64(xs[j+2])-mean, float64(xs[j+3])-mean
		s[0] += float64(d0 * d0)
		s[1] += float64(d1 * d1)
		s[2] += float64(d2 * d2)
		s[3] += float64(d3 * d3)
	}
}

// NormAffine sets ys[j] = (xs[j]-m)·rs·gain[j] + bias[j]: a row
// normalised and scaled in one pass.
func NormAffine(ys, xs, gain, bias []float32, m, rs float32) {
	normAffine(ys, xs, gain, bias, m, rs, avx2)
}

// NormAffineGo is NormAffine in Go.
func NormAffineGo(ys, xs, gain, bias []float32, m, rs float32) {
	normAffine(ys, xs, gain, bias, m, rs, false)
}

func normAffine(ys, xs, gain, bias []float32, m, rs float32, vec bool) {
	xs, gs, bs := xs[:len(ys)], gain[:len(ys)], bias[:len(ys)]
	j := 0
	if vec && len(ys) >= 8 {
		j = len(ys) &^ 7
		NormAffineAVX2(&ys[0], &xs[0], &gs[0], &bs[0], j, m, rs)
	}
	for ; j < len(ys); j++ {
		ys[j] = (xs[j]-m)*rs*gs[j] + bs[j]
	}
}

// normRow writes x̂ = (x - m)·rs into hs.
func normRow(hs, xs []float32, m, rs float32) {
	for j, v := range xs {
		hs[j] = (v - m) * rs
	}
}

// LnBackRow writes a row's x̂ = (x - m)·rs into hs and adds dy·x̂ and dy
// to the gain and bias gradients' accumulators (either may be nil).
func LnBackRow(hs, xs, ds, accG, accB []float32, m, rs float32) {
	lnBackRow(hs, xs, ds, accG, accB, m, rs, avx2)
}

// LnBackRowGo is LnBackRow in Go.
func LnBackRowGo(hs, xs, ds, accG, accB []float32, m, rs float32) {
	lnBackRow(hs, xs, ds, accG, accB, m, rs, false)
}

func lnBackRow(hs, xs, ds, accG, accB []float32, m, rs float32, vec bool) {
	d := len(hs)
	xs, ds = xs[:d], ds[:d]
	n8 := 0
	if vec && accG != nil && accB != nil && d >= 8 {
		n8 = d &^ 7
		accG, accB = accG[:d], accB[:d]
		LnBackRowAVX2(&xs[0], &ds[0], &hs[0], &accG[0], &accB[0], n8, m, rs)
	}
	normRow(hs[n8:], xs[n8:], m, rs)
	if accG != nil {
		accG = accG[:d]
		for j := n8; j < d; j++ {
			accG[j] += ds[j] * hs[j]
		}
	}
	if accB != nil {
		Axpy(accB[n8:d], ds[n8:], 1)
	}
}

// LnRowDx adds one row's dx = rstd · (dĥ - mean(dĥ) - ĥ·mean(dĥ·ĥ)),
// dĥ = dy·gain (gain nil: 1), to dxs; gd is scratch of the row's width.
func LnRowDx(dxs, ds, hs, gs, gd []float32, rstd float32) { lnRowDx(dxs, ds, hs, gs, gd, rstd, avx2) }

// LnRowDxGo is LnRowDx in Go.
func LnRowDxGo(dxs, ds, hs, gs, gd []float32, rstd float32) {
	lnRowDx(dxs, ds, hs, gs, gd, rstd, false)
}

func lnRowDx(dxs, ds, hs, gs, gd []float32, rstd float32, vec bool) {
	d := len(ds)
	dxs, hs, gd = dxs[:d], hs[:d], gd[:d]
	if gs != nil {
		gs = gs[:d]
		for j, dv := range ds {
			gd[j] = dv * gs[j]
		}
	} else {
		copy(gd, ds)
	}
	// four partial sums of each, as Sum4: one accumulator made the loop
	// latency-bound (float64 products of float32 values are exact, so
	// only the sums' rounding moves, by parts in 2⁻⁵³)
	var a, b [4]float64
	n4 := d &^ 3
	if vec && n4 > 0 {
		lnRowDxAVX2(dxs, gd, hs, n4, &a, &b, rstd)
		return
	}
	for j := 0; j < n4; j += 4 {
		g0, g1, g2, g3 := float64(gd[j]), float64(gd[j+1]), float64(gd[j+2]), float64(gd[j+3])
		a[0] += g0
		a[1] += g1
		a[2] += g2
		a[3] += g3
		b[0] += g0 * float64(hs[j])
		b[1] += g1 * float64(hs[j+1])
		b[2] += g2 * float64(hs[j+2])
		b[3] += g3 * float64(hs[j+3])
	}
	m1, m2 := lnRowMeans(gd, hs, n4, &a, &b)
	rs := float64(rstd)
	for j, dv := range gd {
		dxs[j] += float32(rs * (float64(dv) - m1 - float64(hs[j])*m2))
	}
}

// lnRowMeans adds the elements from n4 on to the first partial sums and
// gives the means of gd and gd·hs, combining the four partial sums in the
// same order for the Go and the AVX2 paths (so both give the same bits).
func lnRowMeans(gd, hs []float32, n4 int, a, b *[4]float64) (m1, m2 float64) {
	d := len(gd)
	for j := n4; j < d; j++ {
		a[0] += float64(gd[j])
		b[0] += float64(gd[j]) * float64(hs[j])
	}
	m1 = ((a[0] + a[1]) + (a[2] + a[3])) / float64(d)
	m2 = ((b[0] + b[1]) + (b[2] + b[3])) / float64(d)
	return m1, m2
}

// lnRowDxAVX2 is lnRowDx's sums and update with the first n4 elements (a
// multiple of 4) in AVX2 and the rest in Go, in the Go loops' order.
func lnRowDxAVX2(dxs, gd, hs []float32, n4 int, a, b *[4]float64, rstd float32) {
	d := len(gd)
	var ab [8]float64
	LnSums4AVX2(&gd[0], &hs[0], n4, &ab)
	copy(a[:], ab[:4])
	copy(b[:], ab[4:])
	m1, m2 := lnRowMeans(gd, hs, n4, a, b)
	rs := float64(rstd)
	LnDx4AVX2(&dxs[0], &gd[0], &hs[0], n4, m1, m2, rs)
	for j := n4; j < d; j++ {
		dxs[j] += float32(rs * (float64(gd[j]) - m1 - float64(hs[j])*m2))
	}
}
