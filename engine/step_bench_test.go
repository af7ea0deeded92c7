package engine_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/internal/procstat"
	"github.com/strata-nmt/strata/model"
)

// benchModel is the throughput model of docs/performance.md: 6+6 layers,
// d=256, ffn=1024, 4 heads, shared vocabulary of 8000, post-norm, dropout 0.1
// (attention and activation dropout 0), the same as bench/reference.
func benchModel(tb testing.TB) *model.Transformer {
	cfg, err := model.Preset("transformer-iwslt")
	if err != nil {
		tb.Fatal(err)
	}
	cfg.DModel, cfg.FFN, cfg.Heads = 256, 1024, 4
	cfg.SrcVocab, cfg.TgtVocab = 8000, 8000
	if err := cfg.Validate(); err != nil {
		tb.Fatal(err)
	}
	return model.NewTransformer(cfg, 1)
}

// benchBatch is a 64×32 batch of random ids without padding, every sentence
// ending in eos, the decoder input shifted right behind eos.
func benchBatch(seed uint64) model.Batch {
	const b, t, v = 64, 32, 8000
	r := rand.New(rand.NewPCG(seed, 1))
	bt := model.Batch{Src: make([]int32, b*t), TgtIn: make([]int32, b*t), TgtOut: make([]int32, b*t), B: b, S: t, T: t}
	for i := 0; i < b; i++ {
		for j := 0; j < t; j++ {
			bt.Src[i*t+j] = int32(4 + r.IntN(v-4))
			bt.TgtOut[i*t+j] = int32(4 + r.IntN(v-4))
		}
		bt.Src[i*t+t-1], bt.TgtOut[i*t+t-1] = 2, 2
		bt.TgtIn[i*t] = 2
		copy(bt.TgtIn[i*t+1:(i+1)*t], bt.TgtOut[i*t:(i+1)*t-1])
	}
	return bt
}

// BenchmarkTrainStep is one forward+backward of the throughput model on a
// 64×32 batch, graph reused across steps: allocs/op shows what a steady-state
// step allocates, tok/s the target tokens per second (no optimiser step).
func BenchmarkTrainStep(b *testing.B) {
	for _, mode := range []struct {
		name string
		on   bool
	}{{"engine-threads", false}, {"openblas-threads", true}} {
		b.Run(mode.name, func(b *testing.B) {
			defer engine.UseBLASThreads(mode.on)()
			benchTrainStep(b)
		})
	}
}

func benchTrainStep(b *testing.B) {
	m := benchModel(b)
	bt := benchBatch(1)
	g := engine.NewGraph(1)
	step := func() {
		g.Reset()
		res := model.Loss(g, m, bt, 0.1)
		g.BackwardScaled(res.Loss, 1/float32(res.Tokens))
	}
	step() // warm the arena
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := procstat.CPUSeconds()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.ReportMetric(float64(bt.B*bt.T)*float64(b.N)/b.Elapsed().Seconds(), "tok/s")
	// CPU time (user+system, all threads) per step: on a shared machine it
	// varies less than wall time and shows threads that spin.
	b.ReportMetric((procstat.CPUSeconds()-cpu0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(g.HeldBytes())/(1<<20), "arena-MiB")
}

// BenchmarkTrainStepOps runs the same step with an OpProfile attached and
// reports the share of the step spent in matrix products (Linear, MatMul),
// in attention (its per-head products included) and in the other fused
// ops; -v prints the per-op table.
func BenchmarkTrainStepOps(b *testing.B) {
	m := benchModel(b)
	bt := benchBatch(1)
	g := engine.NewGraph(1)
	step := func() {
		g.Reset()
		res := model.Loss(g, m, bt, 0.1)
		g.BackwardScaled(res.Loss, 1/float32(res.Tokens))
	}
	step()
	prof := engine.NewOpProfile()
	g.SetProfile(prof)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	total := prof.Total()
	var matmul, attn time.Duration
	for _, o := range prof.Sorted() {
		switch o.Op {
		case "Linear", "MatMul":
			matmul += o.Total()
		case "Attention":
			attn += o.Total()
		}
		b.Logf("%-16s %6d calls  forward %8.1f ms  backward %8.1f ms  %5.1f%%", o.Op, o.Calls/b.N,
			ms(o.Forward)/float64(b.N), ms(o.Backward)/float64(b.N), 100*float64(o.Total())/float64(total))
	}
	b.ReportMetric(100*float64(matmul)/float64(total), "matmul-%")
	b.ReportMetric(100*float64(attn)/float64(total), "attention-%")
	b.ReportMetric(100*float64(total-matmul-attn)/float64(total), "other-ops-%")
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
