// Command train-bench measures strata's training throughput on the setting
// of bench/reference/train_transformer.py: a 6+6-layer post-norm
// Transformer (d=256, ffn=1024, 4 heads, shared vocabulary of 8000, dropout
// 0.1), batches of 64 sentences × 32 tokens of random ids, fairseq's
// label-smoothed cross-entropy normalised by target tokens, Adam(0.9, 0.98,
// 1e-8) and the inverse-square-root schedule. The first -warmup-steps
// updates are not timed; the first one's products are traced, and the run
// stops unless they are the work counted from the shape. Progress goes to
// stderr; the result is one JSON line on stdout with the same keys as the
// reference's. run.sh runs both.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/strata-nmt/strata/bench/internal/gemmfloor"
	"github.com/strata-nmt/strata/bench/internal/report"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/blas"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/optim"
	"github.com/strata-nmt/strata/train"
)

type options struct {
	steps, warmupSteps, batch, srcLen, tgtLen int
	vocab, dim, ffn, heads, layers, threads   int
	workers                                   int
	norm                                      string
	dropout, smoothing, lr                    float64
	lrWarmup                                  int
	seed                                      uint64
	cpuProfile                                string
	gemmFloor                                 bool
	peak                                      int
}

func parseFlags() options {
	var o options
	flag.IntVar(&o.steps, "steps", 30, "timed updates")
	flag.IntVar(&o.warmupSteps, "warmup-steps", 3, "untimed updates run first")
	flag.IntVar(&o.batch, "batch-sentences", 64, "sentences per batch")
	flag.IntVar(&o.srcLen, "src-len", 32, "source tokens per sentence, EOS included")
	flag.IntVar(&o.tgtLen, "tgt-len", 32, "target tokens per sentence, EOS included")
	flag.IntVar(&o.vocab, "vocab", 8000, "shared vocabulary size")
	flag.IntVar(&o.dim, "dim", 256, "model width")
	flag.IntVar(&o.ffn, "ffn-dim", 1024, "feed-forward width")
	flag.IntVar(&o.heads, "heads", 4, "attention heads")
	flag.IntVar(&o.layers, "layers", 6, "encoder layers = decoder layers")
	flag.StringVar(&o.norm, "norm", "post", "post or pre")
	flag.Float64Var(&o.dropout, "dropout", 0.1, "residual dropout")
	flag.Float64Var(&o.smoothing, "label-smoothing", 0.1, "label smoothing")
	flag.Float64Var(&o.lr, "lr", 5e-4, "peak learning rate")
	flag.IntVar(&o.lrWarmup, "lr-warmup-updates", 4000, "learning-rate warm-up updates")
	flag.IntVar(&o.threads, "threads", 2, "threads (GOMAXPROCS and kernel goroutines)")
	flag.IntVar(&o.workers, "batch-shards", 0, "split each batch by sentences into this many shards trained at once by in-process workers sharing -threads (strata train --batch-shards; 0: its default, one per thread)")
	flag.Uint64Var(&o.seed, "seed", 1, "seed for parameters, data and dropout")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the timed steps here")
	flag.BoolVar(&o.gemmFloor, "gemm-floor", false,
		"diagnostic: also replay one step's matrix products, as strata's engine splits them, alone -steps times")
	flag.IntVar(&o.peak, "peak", 0, "only measure the machine's peak sgemm rate on an N×N×N product with -threads threads, and exit")
	flag.Parse()
	if o.workers <= 0 {
		o.workers = train.DefaultWorkers(o.threads)
	}
	return o
}

func main() {
	log.SetFlags(0)
	o := parseFlags()
	runtime.GOMAXPROCS(o.threads)
	if o.peak > 0 {
		// in a process of its own: the operands would count in the
		// training's peak RSS
		if err := json.NewEncoder(os.Stdout).Encode(peakResult(o.peak, o.threads)); err != nil {
			log.Fatal(err)
		}
		return
	}
	m, w := newModel(o)
	adam, err := optim.NewAdam(m.Params().List(), optim.AdamConfig{Beta1: 0.9, Beta2: 0.98, Eps: 1e-8})
	if err != nil {
		log.Fatal(err)
	}
	adam.Threads = o.threads // as strata train sets it
	sched := train.InverseSqrt{Peak: o.lr, Warmup: o.lrWarmup}
	batches := randomBatches(o)
	res := run(o, m, w, adam, sched, batches)
	res["gflop_per_step"] = report.Round(stepFLOP(o)/1e9, 2)
	if o.gemmFloor {
		gemmFloor(o, m, w, batches[0], res)
	}
	res["params"] = m.Params().Count()
	// equal for two builds that train bit for bit alike (an A/B of engine
	// changes that must not change any result)
	res["params_fnv64"] = fmt.Sprintf("%016x", train.Checksum(m.Params().List()))
	res["blas"] = blas.Default().Name()
	res["f32_kernel"], res["gradw_kernel"] = engine.F32Kernel(), engine.GradWKernel()
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		log.Fatal(err)
	}
}

// newModel builds the benchmark's Transformer and o.workers workers sharing
// o.threads threads, as strata train does.
func newModel(o options) (*model.Transformer, *train.Workers) {
	cfg, err := model.Preset("transformer-iwslt")
	if err != nil {
		log.Fatal(err)
	}
	cfg.EncoderLayers, cfg.DecoderLayers = o.layers, o.layers
	cfg.DModel, cfg.FFN, cfg.Heads = o.dim, o.ffn, o.heads
	cfg.EncoderNorm, cfg.DecoderNorm = model.Norm(o.norm), model.Norm(o.norm)
	cfg.SrcVocab, cfg.TgtVocab = o.vocab, o.vocab
	cfg.Dropout = float32(o.dropout)
	if err := cfg.Validate(); err != nil {
		log.Fatal(err)
	}
	m := model.NewTransformer(cfg, o.seed)
	return m, train.NewWorkers(m, o.workers, o.threads, o.seed)
}

// run trains over the batches and returns the result fields.
func run(o options, m *model.Transformer, w *train.Workers, adam *optim.Adam, sched train.InverseSqrt,
	batches []model.Batch) map[string]any {
	tokensPerStep := o.batch * o.tgtLen
	var timed time.Duration
	var cpu float64 // seconds
	var lossFirst, lossLast float64
	for step, bt := range batches {
		if step == o.warmupSteps {
			startProfile(o.cpuProfile)
		}
		var stop func() []engine.GemmCall
		if step == 0 && o.warmupSteps > 0 {
			stop = engine.TraceGemms() // untimed: the check of the counted work
		}
		start, cpu0 := time.Now(), report.CPUSeconds()
		res := forwardBackward(o, m, w, bt)
		if stop != nil {
			if err := checkStepFLOP(o, gemmfloor.TotalFlops(stop())); err != nil {
				log.Fatal(err)
			}
		}
		adam.Update(sched.LR(step))
		elapsed := time.Since(start)
		loss := res.loss / float64(res.tokens)
		if step == 0 {
			lossFirst = loss
		}
		lossLast = loss
		note := " (warmup)"
		if step >= o.warmupSteps {
			timed += elapsed
			cpu += report.CPUSeconds() - cpu0
			note = ""
		}
		fmt.Fprintf(os.Stderr, "step %d/%d loss %.4f nll %.4f %.0f tok/s%s\n", step+1, len(batches), loss,
			res.nll/float64(res.tokens), float64(tokensPerStep)/elapsed.Seconds(), note)
	}
	pprof.StopCPUProfile()
	out := map[string]any{
		"impl": "strata", "bench": "train", "go": runtime.Version(), "threads": o.threads, "batch_shards": o.workers, "norm": o.norm,
		"steps": o.steps, "warmup_steps": o.warmupSteps, "tgt_tokens_per_step": tokensPerStep,
		"seconds": report.Round(timed.Seconds(), 3), "cpu_seconds": report.Round(cpu, 3),
		"loss_first": report.Round(lossFirst, 4), "loss_last": report.Round(lossLast, 4),
		"peak_rss_mb": report.Round(report.PeakRSSMB(), 1),
	}
	if o.steps > 0 {
		out["step_ms"] = report.Round(1000*timed.Seconds()/float64(o.steps), 1)
		out["tokens_per_s"] = report.Round(float64(tokensPerStep*o.steps)/timed.Seconds(), 1)
	}
	return out
}

// checkStepFLOP is an error when the step's counted work (stepFLOP, what
// every share of the ceiling is computed from) is not the work of the
// products the engine traced in a step: a share from a wrong count is not
// a share.
func checkStepFLOP(o options, traced float64) error {
	if counted := stepFLOP(o); math.Abs(counted-traced) > 1e-9*traced {
		return fmt.Errorf("train-bench: the step's FLOP count %.0f (bench/train/flops.go) is not the %.0f of the products traced in the first step",
			counted, traced)
	}
	return nil
}

type stepResult struct {
	loss, nll float64
	tokens    int
}

// forwardBackward computes one batch's loss and gradients (normalised by
// target tokens), as the reference does before its optimiser step, split
// over the workers as strata train splits it.
func forwardBackward(o options, m *model.Transformer, w *train.Workers, bt model.Batch) stepResult {
	tokens := 0
	for _, id := range bt.TgtOut {
		if id != int32(m.Config().PadID) {
			tokens++
		}
	}
	w.ZeroGrad()
	loss, nll, n := w.Backward(bt, float32(o.smoothing), 1/float32(tokens))
	w.Reduce()
	return stepResult{loss, nll, n}
}

// randomBatches draws ids from [4, vocab) (past pad, bos, eos, unk); every
// sentence ends in eos and none is padded; the decoder input is the target
// shifted right behind eos, as in the reference.
func randomBatches(o options) []model.Batch {
	r := rand.New(rand.NewPCG(o.seed, 2))
	out := make([]model.Batch, o.warmupSteps+o.steps)
	for i := range out {
		b, s, t := o.batch, o.srcLen, o.tgtLen
		bt := model.Batch{Src: make([]int32, b*s), TgtIn: make([]int32, b*t), TgtOut: make([]int32, b*t), B: b, S: s, T: t}
		for k := range bt.Src {
			bt.Src[k] = int32(4 + r.IntN(o.vocab-4))
		}
		for k := range bt.TgtOut {
			bt.TgtOut[k] = int32(4 + r.IntN(o.vocab-4))
		}
		for j := 0; j < b; j++ {
			bt.Src[j*s+s-1], bt.TgtOut[j*t+t-1] = 2, 2
			bt.TgtIn[j*t] = 2
			copy(bt.TgtIn[j*t+1:(j+1)*t], bt.TgtOut[j*t:(j+1)*t-1])
		}
		out[i] = bt
	}
	return out
}

func startProfile(path string) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
}

// gemmFloor traces the matrix products of one more update and replays them
// alone -steps times: no implementation using this BLAS, with the same
// products, trains faster than that. It adds the floor's step time,
// tokens/s and GFLOP per step to res.
//
// With several workers the trace holds every worker's products, replayed
// one after another on a graph of -threads threads.
func gemmFloor(o options, m *model.Transformer, w *train.Workers, bt model.Batch, res map[string]any) {
	stop := engine.TraceGemms()
	forwardBackward(o, m, w, bt)
	calls := stop()
	flops := gemmfloor.TotalFlops(calls)
	gemmfloor.Replay(calls, o.threads) // untimed: first touch of the scratch operands
	start := time.Now()
	for i := 0; i < o.steps; i++ {
		gemmfloor.Replay(calls, o.threads)
	}
	step := time.Since(start).Seconds() / float64(max(o.steps, 1))
	res["gemm_calls_per_step"] = len(calls)
	res["gemm_gflop_per_step"] = report.Round(flops/1e9, 2)
	res["gemm_floor_step_ms"] = report.Round(1000*step, 1)
	res["gemm_floor_tokens_per_s"] = report.Round(float64(o.batch*o.tgtLen)/step, 1)
	fmt.Fprintf(os.Stderr, "matrix products alone: %d per step, %.1f GFLOP, %.0f ms (%.0f GFLOP/s)\n",
		len(calls), flops/1e9, 1000*step, flops/1e9/step)
}
