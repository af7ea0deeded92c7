// Command deep measures training speed and peak memory of the deep
// architectures at several encoder depths (docs/performance.md, section
// "Deep models (MSC)"). Each depth runs in a child process of its own so
// that the peak resident set (VmHWM) belongs to that depth alone.
//
//	go run ./bench/deep -arch msc -layers 6,18,36,72 -steps 3
//	go run ./bench/deep -arch msc -layers 36 -micro 1,2,4   # strata train --micro-batches
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/strata-nmt/strata/bench/internal/report"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/train"
)

type result struct {
	Layers     int     `json:"layers"`
	Micro      int     `json:"micro_batches"`
	Params     int     `json:"params"`
	SecPerStep float64 `json:"sec_per_step"`
	CPUPerStep float64 `json:"cpu_sec_per_step"`
	TgtTokS    float64 `json:"tgt_tok_per_s"`
	PeakMiB    float64 `json:"peak_rss_mib"`
	ArenaMiB   float64 `json:"arena_mib"`
}

// cpuProfile, when set, is the prefix of a CPU profile of each setting's
// timed steps: PREFIX-LAYERS-MICRO.prof (go tool pprof).
var cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of each setting's timed steps to PREFIX-LAYERS-MICRO.prof")

func main() {
	arch := flag.String("arch", "msc", "msc, deep-pre, deep-post, dlcl-pre, dlcl-post or transparent (preset family at msc-small widths)")
	layers := flag.String("layers", "6,18,36,72", "encoder depths")
	steps := flag.Int("steps", 3, "timed training steps per depth (after one warm-up step)")
	tokens := flag.Int("tokens", 2048, "target tokens per batch")
	length := flag.Int("len", 25, "source and target sentence length")
	vocab := flag.Int("vocab", 10000, "joint vocabulary size (the paper's IWSLT BPE)")
	micro := flag.String("micro", "1", "pieces each batch runs in (strata train --micro-batches); a list measures each")
	threads := flag.Int("threads", 0, "kernel threads (0: all cores)")
	child := flag.Bool("child", false, "internal: measure one depth and print JSON")
	flag.Parse()
	if *child {
		n, err := strconv.Atoi(*layers)
		check(err)
		p, err := strconv.Atoi(*micro)
		check(err)
		r := measure(*arch, n, p, *threads, *steps, *tokens, *length, *vocab)
		check(json.NewEncoder(os.Stdout).Encode(r))
		return
	}
	var rs []result
	fmt.Printf("%-12s %7s %6s %9s %10s %10s %12s %10s %10s\n", "arch", "layers", "micro", "params", "s/step", "cpu s/step", "tgt tok/s", "peak MiB", "arena MiB")
	for _, l := range strings.Split(*layers, ",") {
		for _, p := range strings.Split(*micro, ",") {
			p = strings.TrimSpace(p)
			r := runChild(*arch, strings.TrimSpace(l), p, *threads, *steps, *tokens, *length, *vocab)
			if p == "1" || !strings.Contains(*micro, ",") {
				rs = append(rs, r) // the depth line is fitted at one setting
			}
			fmt.Printf("%-12s %7d %6d %8.1fM %10.2f %10.2f %12.0f %10.0f %10.0f\n", *arch, r.Layers, r.Micro, float64(r.Params)/1e6, r.SecPerStep, r.CPUPerStep, r.TgtTokS, r.PeakMiB, r.ArenaMiB)
		}
	}
	linearity(rs)
}

// runChild re-executes this binary for one depth and micro-batch count.
func runChild(arch, layers, micro string, threads, steps, tokens, length, vocab int) result {
	cmd := exec.Command(os.Args[0], "-child", "-arch", arch, "-layers", layers, "-micro", micro, "-threads", strconv.Itoa(threads), "-steps", strconv.Itoa(steps),
		"-tokens", strconv.Itoa(tokens), "-len", strconv.Itoa(length), "-vocab", strconv.Itoa(vocab), "-cpuprofile", *cpuProfile)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	check(err)
	var r result
	check(json.Unmarshal(out, &r))
	return r
}

// linearity fits time = a + b·layers by least squares and prints each
// depth's deviation from the line, and the same for memory.
func linearity(rs []result) {
	if len(rs) < 2 {
		return
	}
	for _, f := range []struct {
		name string
		get  func(result) float64
	}{{"s/step", func(r result) float64 { return r.SecPerStep }}, {"cpu s/step", func(r result) float64 { return r.CPUPerStep }},
		{"peak MiB", func(r result) float64 { return r.PeakMiB }}} {
		var sx, sy, sxx, sxy float64
		n := float64(len(rs))
		for _, r := range rs {
			x, y := float64(r.Layers), f.get(r)
			sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		}
		b := (n*sxy - sx*sy) / (n*sxx - sx*sx)
		a := (sy - b*sx) / n
		fmt.Printf("%s ≈ %.3g + %.3g·layers;", f.name, a, b)
		worst := 0.0
		for _, r := range rs {
			dev := f.get(r)/(a+b*float64(r.Layers)) - 1
			worst = math.Max(worst, math.Abs(dev))
			fmt.Printf(" %d: %+.1f%%", r.Layers, 100*dev)
		}
		fmt.Printf(" (worst deviation %.1f%%)\n", 100*worst)
	}
}

func config(arch string, layers, vocab int) model.Config {
	name := fmt.Sprintf("%s-%d", arch, layers)
	if arch == "msc" && layers%6 != 0 {
		check(fmt.Errorf("msc needs a multiple of 6 layers (6 blocks), got %d", layers))
	}
	c, err := model.Preset(fmt.Sprintf("%s-%d", arch, 36))
	check(err)
	c.Preset, c.EncoderLayers = name, layers
	c.SrcVocab, c.TgtVocab = vocab, vocab
	check(c.Validate())
	return c
}

func measure(arch string, layers, micro, threads, steps, tokens, length, vocab int) result {
	c := config(arch, layers, vocab)
	m, err := model.New(c, 1)
	check(err)
	bt := batch(tokens/length, length, vocab)
	ps := m.Params().List()
	opt := newAdam(ps)
	// one worker, as the trainer runs it, in micro pieces
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	w := train.NewWorkers(m, 1, threads, 1)
	w.SetMicroBatches(micro)
	g := w.Graph()
	step := func() {
		w.ZeroGrad()
		w.Backward(bt, 0.1, 1/float32(bt.B*bt.T))
		opt.step(5e-4)
	}
	step() // warm-up: arena and allocator reach steady state
	stop := startProfile(layers, micro)
	start, cpu0 := time.Now(), report.CPUSeconds()
	for i := 0; i < steps; i++ {
		step()
	}
	sec := time.Since(start).Seconds() / float64(steps)
	stop()
	return result{
		Layers: layers, Micro: micro, Params: m.Params().Count(), SecPerStep: sec, CPUPerStep: (report.CPUSeconds() - cpu0) / float64(steps),
		TgtTokS: float64(bt.B*bt.T) / sec, PeakMiB: report.PeakRSSMB(), ArenaMiB: float64(g.HeldBytes()) / (1 << 20),
	}
}

// startProfile starts the CPU profile of one setting's timed steps when
// -cpuprofile asks for it, and returns what stops it.
func startProfile(layers, micro int) (stop func()) {
	if *cpuProfile == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s-%d-%d.prof", *cpuProfile, layers, micro))
	check(err)
	check(pprof.StartCPUProfile(f))
	return func() {
		pprof.StopCPUProfile()
		check(f.Close())
	}
}

// batch is b random sentence pairs of length n (no padding: every batch of
// the benchmark costs the same).
func batch(b, n, vocab int) model.Batch {
	r := rand.New(rand.NewPCG(1, 2))
	bt := model.Batch{B: b, S: n, T: n, Src: make([]int32, b*n), TgtIn: make([]int32, b*n), TgtOut: make([]int32, b*n)}
	for i := range bt.Src {
		bt.Src[i], bt.TgtOut[i] = int32(4+r.IntN(vocab-4)), int32(4+r.IntN(vocab-4))
	}
	for i := 0; i < b; i++ {
		bt.TgtIn[i*n] = 2
		copy(bt.TgtIn[i*n+1:(i+1)*n], bt.TgtOut[i*n:(i+1)*n-1])
	}
	return bt
}

// adam is a plain Adam so the benchmark holds the optimiser state a real run
// holds (two moments per parameter) without depending on the trainer.
type adam struct {
	ps   []*engine.Tensor
	m, v [][]float32
	t    int
}

func newAdam(ps []*engine.Tensor) *adam {
	a := &adam{ps: ps}
	for _, p := range ps {
		a.m, a.v = append(a.m, make([]float32, len(p.Data))), append(a.v, make([]float32, len(p.Data)))
	}
	return a
}

func (a *adam) step(lr float64) {
	a.t++
	c1, c2 := 1-math.Pow(0.9, float64(a.t)), 1-math.Pow(0.98, float64(a.t))
	for i, p := range a.ps {
		m, v := a.m[i], a.v[i]
		for j, g := range p.Grad {
			m[j] = 0.9*m[j] + 0.1*g
			v[j] = 0.98*v[j] + 0.02*g*g
			p.Data[j] -= float32(lr * float64(m[j]) / c1 / (math.Sqrt(float64(v[j])/c2) + 1e-8))
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "deep:", err)
		os.Exit(1)
	}
}
