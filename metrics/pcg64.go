package metrics

import "math/bits"

// numpyRNG reproduces numpy.random.default_rng(seed) (PCG64 seeded through
// SeedSequence) far enough for Generator.choice(n, size, replace=True), so
// that PairedBootstrap draws exactly the resamples sacreBLEU draws. Go has
// no numpy-compatible generator, hence this hand-written port; it is
// checked against numpy by TestNumpyRNG.
type numpyRNG struct {
	hi, lo       uint64 // 128-bit LCG state
	incHi, incLo uint64 // 128-bit increment (odd)
	hasUint32    bool
	uinteger     uint32
}

// PCG64's 128-bit multiplier.
const pcgMulHi, pcgMulLo = 0x2360ed051fc65da4, 0x4385df649fccf645

func newNumpyRNG(seed uint64) *numpyRNG {
	st := seedSequenceState(seed)
	r := &numpyRNG{}
	initHi, initLo := st[0], st[1]
	seqHi, seqLo := st[2], st[3]
	// pcg_setseq_128_srandom_r: inc = seq<<1 | 1; step; state += init; step.
	r.incHi = seqHi<<1 | seqLo>>63
	r.incLo = seqLo<<1 | 1
	r.step()
	var c uint64
	r.lo, c = bits.Add64(r.lo, initLo, 0)
	r.hi, _ = bits.Add64(r.hi, initHi, c)
	r.step()
	return r
}

func (r *numpyRNG) step() {
	// state = state*mul + inc, mod 2^128.
	hi, lo := bits.Mul64(r.lo, pcgMulLo)
	hi += r.hi*pcgMulLo + r.lo*pcgMulHi
	var c uint64
	r.lo, c = bits.Add64(lo, r.incLo, 0)
	r.hi, _ = bits.Add64(hi, r.incHi, c)
}

func (r *numpyRNG) next64() uint64 {
	r.step()
	return bits.RotateLeft64(r.hi^r.lo, -int(r.hi>>58))
}

// next32 is numpy's pcg64_next32: each 64-bit output serves two calls, low
// half first.
func (r *numpyRNG) next32() uint32 {
	if r.hasUint32 {
		r.hasUint32 = false
		return r.uinteger
	}
	v := r.next64()
	r.hasUint32 = true
	r.uinteger = uint32(v >> 32)
	return uint32(v)
}

// intn returns a value in [0, n) as Generator.integers(0, n) does for
// n <= 2^32: Lemire's method on 32-bit draws (numpy's
// buffered_bounded_lemire_uint32 with rng = n-1).
func (r *numpyRNG) intn(n uint32) uint32 {
	if n == 1 {
		return 0
	}
	m := uint64(r.next32()) * uint64(n)
	left := uint32(m)
	if left < n {
		threshold := (^uint32(0) - (n - 1)) % n
		for left < threshold {
			m = uint64(r.next32()) * uint64(n)
			left = uint32(m)
		}
	}
	return uint32(m >> 32)
}

// seedSequenceState is numpy's SeedSequence(seed).generate_state(4, uint64)
// for a non-negative integer seed below 2^64 and no spawn key.
func seedSequenceState(seed uint64) [4]uint64 {
	const (
		initA, multA = 0x43b0d7e5, 0x931e8875
		initB, multB = 0x8b51f9dd, 0x58f38ded
		mixL, mixR   = 0xca01f9dd, 0x4973f715
		poolSize     = 4
	)
	entropy := []uint32{uint32(seed)}
	if seed>>32 != 0 {
		entropy = append(entropy, uint32(seed>>32))
	}
	hashConst := uint32(initA)
	hashmix := func(v uint32) uint32 {
		v ^= hashConst
		hashConst *= multA
		v *= hashConst
		return v ^ v>>16
	}
	mix := func(x, y uint32) uint32 {
		r := mixL*x - mixR*y
		return r ^ r>>16
	}
	var pool [poolSize]uint32
	for i := range pool {
		if i < len(entropy) {
			pool[i] = hashmix(entropy[i])
		} else {
			pool[i] = hashmix(0)
		}
	}
	for src := range pool {
		for dst := range pool {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}
	// generate_state: 8 words cycling over the pool, then pairs as uint64.
	var words [8]uint32
	hc := uint32(initB)
	for i := range words {
		v := pool[i%poolSize]
		v ^= hc
		hc *= multB
		v *= hc
		words[i] = v ^ v>>16
	}
	var out [4]uint64
	for i := range out {
		out[i] = uint64(words[2*i]) | uint64(words[2*i+1])<<32
	}
	return out
}
