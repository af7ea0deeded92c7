package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/strata-nmt/strata/internal/ceiling"
)

// BenchmarkLinearInt8 compares the float32 Linear with the int8 one, with
// each assembly int8 kernel this CPU runs (avx512-vnni, avx2), on the
// shapes of a beam-search step (160 rows: 32 sentences × beam 5), and each
// one's share of the ceiling measured after it on the same 2 threads: the
// int8 multiply-add peak (vpdpbusd or vpmaddubsw) for int8, the FMA peak
// for float32.
//
//	go test -run XXX -bench LinearInt8 ./engine/
func BenchmarkLinearInt8(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	modes := []string{"float32"}
	for _, k := range int8Kernels {
		if id, _, _ := strings.Cut(k.Name, " "); id != "go" {
			modes = append(modes, "int8-"+id)
		}
	}
	defer func(k int8TileKernel) { int8Kernel = k }(int8Kernel)
	for _, sh := range [][3]int{{160, 256, 768}, {160, 256, 1024}, {160, 1024, 256}, {160, 256, 8000}} {
		n, in, out := sh[0], sh[1], sh[2]
		x, w, bias := NewTensor(n, in), NewTensor(out, in), NewTensor(out)
		Normal(x, 1, rng)
		Normal(w, 0.1, rng)
		for _, mode := range modes {
			b.Run(fmt.Sprintf("%dx%dx%d/%s", n, in, out, mode), func(b *testing.B) {
				int8Kernel = chooseInt8Kernel(strings.TrimPrefix(mode, "int8-"))
				g := NewInference()
				g.SetThreads(2)
				g.SetCompute(computeOf(mode != "float32"))
				for i := 0; i < b.N; i++ {
					g.Reset()
					g.Linear(x, w, bias)
				}
				gmac := float64(n*in*out) * float64(b.N) / b.Elapsed().Seconds() / 1e9
				b.ReportMetric(gmac, "GMAC/s")
				reportPeakShare(b, 2*gmac*1e9, mode != "float32", 2)
			})
		}
	}
}

// reportPeakShare reports ops (operations per second on threads threads) as
// a share of the int8 or the float32 peak of as many threads, measured now;
// above 100% it fails the benchmark instead: the operations counted or
// the ceiling is wrong.
func reportPeakShare(b *testing.B, ops float64, int8 bool, threads int) {
	loop, name := ceiling.FMAPeak, "fma-peak"
	if int8 {
		loop, name = ceiling.Int8Peak, "int8-peak"
	}
	peak := ceiling.Measure(threads, 100*time.Millisecond, loop)
	if peak.Cores == 0 {
		return // no peak loop on this CPU: no ceiling to report
	}
	share, err := ceiling.Share(ops, peak.Cores)
	if err != nil {
		b.Errorf("%s: %v", name, err)
		return
	}
	b.ReportMetric(share, "share-of-"+name)
}
