package engine

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkTrainProducts compares training's forward products and input
// gradients on the packed kernel in use with the same kernel restricted to
// one panel at a time (no two-panel loop: the AVX-512 kernel before it got
// one), one thread, side by side, the order alternating, timed in CPU time
// of the locked thread, then the core's FMA peak (ceiling.FMAPeak, the ceiling)
// for about as long. Shapes: 4,096 rows through the zero-shot recipe's
// layers (d 128, FFN 512, vocabulary 8,508; the vocabulary's input
// gradient in blocks of packedMaxK outputs as gradXTrainPacked runs it).
// The weight is packed once outside the timing. Metrics: GFLOP per
// CPU-second of each, their ratio (kernel/one-panel) and the kernel's
// share of the peak (kernel/peak).
//
//	go test ./engine -run '^$' -bench TrainProducts -cpu 1 -benchtime 10x
func BenchmarkTrainProducts(b *testing.B) {
	if f32Kernel.Tile == nil {
		b.Skip("no packed kernel in use")
	}
	for _, s := range []struct{ k, out int }{{128, 384}, {128, 128}, {128, 512}, {512, 128}, {128, 8508}, {1024, 128}} {
		b.Run(fmt.Sprintf("n4096_k%d_out%d", s.k, s.out), func(b *testing.B) { benchTrainProduct(b, 4096, s.k, s.out) })
	}
}

func benchTrainProduct(b *testing.B, n, k, out int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	x, w, bias, y := benchData(n*k), benchData(out*k), benchData(out), make([]float32, n*out)
	p := PackF32(w, out, k)
	g := NewGraph(1)
	g.SetThreads(1)
	narrow := f32Kernel
	narrow.Wide = nil
	run := func(kern f32TileKernel) func() {
		return func() { g.packedProduct(kern, x, n, p, bias, y) }
	}
	benchProductPair(b, 2*float64(n)*float64(out)*float64(k), run(f32Kernel), run(narrow), "one-panel")
}
