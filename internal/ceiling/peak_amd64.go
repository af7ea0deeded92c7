//go:build amd64 && !purego

package ceiling

import "golang.org/x/sys/cpu"

// The loops are in peak_amd64.s.
//
//go:noescape
func fmaPeakAVX512(n int)

//go:noescape
func fmaPeakAVX2(n int)

//go:noescape
func vnniPeakAVX512(n int)

//go:noescape
func maddubswPeakAVX512(n int)

//go:noescape
func maddubswPeakAVX2(n int)

var (
	haveAVX2FMA   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	haveAVX512F   = haveAVX2FMA && cpu.X86.HasAVX512F
	haveAVX512BW  = haveAVX512F && cpu.X86.HasAVX512BW
	haveAVX512VNI = haveAVX512F && cpu.X86.HasAVX512VNNI
)

// Each loop runs 12 independent instructions a round: enough chains to
// fill two pipes of 4-5 cycles' latency.
const perRound = 12

// FMAPeak runs n rounds of 12 independent float32 fused multiply-adds on
// the widest vectors the CPU has and returns the floating-point
// operations done (2 per lane and FMA; 0 where it has no FMA or n < 1).
func FMAPeak(n int) float64 {
	switch {
	case n < 1:
		return 0
	case haveAVX512F:
		fmaPeakAVX512(n)
		return float64(n) * perRound * 16 * 2
	case haveAVX2FMA:
		fmaPeakAVX2(n)
		return float64(n) * perRound * 8 * 2
	}
	return 0
}

// Int8Peak runs n rounds of 12 independent int8 multiply-add instructions,
// the widest the CPU has: vpdpbusd on 512 bits (AVX-512 VNNI), else
// vpmaddubsw on 512 bits (AVX-512 BW) or 256 bits (AVX2). It returns the
// integer operations done, 2 per byte product (a multiply and an add), as
// a matrix product's work is counted; 0 where the CPU has none of them.
func Int8Peak(n int) float64 {
	switch {
	case n < 1:
		return 0
	case haveAVX512VNI:
		vnniPeakAVX512(n)
		return float64(n) * perRound * 64 * 2
	case haveAVX512BW:
		maddubswPeakAVX512(n)
		return float64(n) * perRound * 64 * 2
	case haveAVX2FMA:
		maddubswPeakAVX2(n)
		return float64(n) * perRound * 32 * 2
	}
	return 0
}

// FMAKernel and Int8Kernel name the loop FMAPeak and Int8Peak run.
func FMAKernel() string {
	switch {
	case haveAVX512F:
		return "avx512 vfmadd231ps"
	case haveAVX2FMA:
		return "avx2 vfmadd231ps"
	}
	return "none"
}

func Int8Kernel() string {
	switch {
	case haveAVX512VNI:
		return "avx512-vnni vpdpbusd"
	case haveAVX512BW:
		return "avx512bw vpmaddubsw"
	case haveAVX2FMA:
		return "avx2 vpmaddubsw"
	}
	return "none"
}
