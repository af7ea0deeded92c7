// Command decode is strata's side of the decoding benchmark: the model and
// setting of bench/reference/decode_transformer.py (6+6 layers, d=256,
// ffn=1024, 4 heads, vocabulary 8000, random weights; 500 sources of 10-40
// ids plus EOS; beam 5, batch 32, max_len = 1.2·S + 10 with S the padded
// batch width, as fairseq computes it), printing one JSON line in the same
// format. With --sources it decodes the exact sources the reference dumped
// (--dump-sources), so both sides do the same work; bench/decode/run.sh
// runs both and prints the ratio.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/strata-nmt/strata/bench/internal/gemmfloor"
	"github.com/strata-nmt/strata/bench/internal/report"
	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/blas"
	"github.com/strata-nmt/strata/model"
)

func main() {
	sentences := flag.Int("sentences", 500, "random sources to decode (without --sources)")
	minLen := flag.Int("min-src-len", 10, "fewest word ids per random source")
	maxLen := flag.Int("max-src-len", 40, "most word ids per random source")
	sources := flag.String("sources", "", "decode these sources (ids, EOS included, one sentence a line)")
	batch := flag.Int("batch", 32, "sentences per batch")
	beam := flag.Int("beam", 5, "beam size")
	a := flag.Float64("max-len-a", 1.2, "max_len = a·S + b")
	b := flag.Int("max-len-b", 10, "max_len = a·S + b")
	vocab := flag.Int("vocab", 8000, "vocabulary size")
	layers := flag.Int("layers", 6, "encoder and decoder layers")
	dim := flag.Int("dim", 256, "model width")
	ffn := flag.Int("ffn-dim", 1024, "feed-forward width")
	heads := flag.Int("heads", 4, "attention heads")
	threads := flag.Int("threads", 2, "kernel threads (GOMAXPROCS)")
	workers := flag.Int("decoders", 0, "batches decoded at once, each by its own searcher with threads/decoders kernel threads (0: decode.DefaultWorkers, as strata translate)")
	flag.IntVar(workers, "workers", 0, "the same as --decoders")
	shortestFirst := flag.Bool("shortest-first", false, "decode the length-sorted batches shortest first, as the reference does (default: longest first, as strata translate does)")
	warmup := flag.Int("warmup-batches", 1, "batches decoded once, untimed, first")
	recompute := flag.Bool("recompute", false, "re-run the decoder over whole prefixes (no incremental state)")
	seed := flag.Uint64("seed", 1, "seed of weights and sources")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here")
	memProfile := flag.String("memprofile", "", "write a heap profile (live objects after the timed run) here")
	peakProfile := flag.String("peak-memprofile", "", "write the heap profile of the largest live heap of the run here (sampled every 50 ms)")
	floor := flag.Bool("gemm-floor", false, "also replay the run's matrix products alone (its floor on this BLAS)")
	computeType := flag.String("compute-type", "float32", "float32 or int8")
	cacheType := flag.String("cache-type", "", "decoder cache float32 or float16 (default: float16 with int8, as strata translate)")
	int8Bits := flag.Int("int8-bits", 0, "with int8, the activation width, 8 or 7 (0: the engine's default, as strata translate)")
	shortlistRows := flag.Int("shortlist-rows", 0, "decode over a fixed random shortlist of this many target tokens (0: none)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		check(err)
		check(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	runtime.GOMAXPROCS(*threads)
	peakLive := func() float64 { return 0 }
	if *peakProfile != "" {
		peakLive = peakHeapProfiler(*peakProfile)
	}
	decode.TightGC() // as strata translate

	cfg, _ := model.Preset("tiny")
	cfg.EncoderLayers, cfg.DecoderLayers, cfg.DModel, cfg.FFN, cfg.Heads = *layers, *layers, *dim, *ffn, *heads
	cfg.SrcVocab, cfg.TgtVocab = *vocab, *vocab
	m, err := model.New(cfg, *seed)
	check(err)
	m.Params().DropGrads() // as decode.Load does
	srcs := randomSources(*sentences, *minLen, *maxLen, *vocab, *seed)
	if *sources != "" {
		srcs, err = readSources(*sources)
		check(err)
	}
	o := decode.Defaults()
	o.Beam, o.NBest, o.MaxLenA, o.MaxLenB, o.BatchMaxLen = *beam, 1, *a, *b, true
	o.ComputeType, o.CacheType, o.Int8Bits = *computeType, *cacheType, *int8Bits
	if *shortlistRows > 0 {
		o.Shortlist = randomShortlist(*shortlistRows, *vocab, *seed)
		defer os.Remove(o.Shortlist)
	}
	// searchers come from a bundle, as in strata translate: an int8 one
	// releases the float32 projections
	bundle := &decode.Bundle{Model: m}
	s, err := bundle.Searcher(o)
	check(err)
	s.SetThreads(*threads)
	if *recompute {
		s.ForceRecompute()
	}
	if *workers == 0 {
		*workers = decode.DefaultWorkers(*threads)
	}
	pool, err := decode.NewPool(s, *workers, *threads, func() (*decode.Searcher, error) {
		x, err := bundle.Searcher(o)
		if err == nil && *recompute {
			x.ForceRecompute()
		}
		return x, err
	})
	check(err)
	batches := lengthSorted(srcs, *batch)
	if !*shortestFirst {
		slices.Reverse(batches)
	}
	prefix := []int32{data.DecoderStart}
	batchSrcs := func(i int) [][]int32 { return pick(srcs, batches[i]) }
	// every worker decodes warm-up batches, so that none starts cold: with
	// W workers, the first W batches (those W workers take first in the
	// timed run too)
	check(pool.Run(min(*warmup**workers, len(batches)), batchSrcs, prefix, func(int, [][]decode.Hypothesis) error { return nil }))
	var generated atomic.Int64
	var finished atomic.Int32
	srcTokens := 0
	start, cpu0 := time.Now(), report.CPUSeconds()
	best := make([][]int32, len(srcs)) // each source's best output
	check(pool.Run(len(batches), batchSrcs, prefix, func(i int, res [][]decode.Hypothesis) error {
		for k, hyps := range res {
			generated.Add(int64(len(hyps[0].Tokens)))
			best[batches[i][k]] = hyps[0].Tokens
		}
		n := finished.Add(1)
		fmt.Fprintf(os.Stderr, "batch %d/%d %.2f sent/s\n", n, len(batches), float64(int(n)*len(batches[i]))/time.Since(start).Seconds())
		return nil
	}))
	el, cpu := time.Since(start).Seconds(), report.CPUSeconds()-cpu0
	// of every output, to compare two builds' translations: in the order
	// of the shortest-first batches, whatever order or decoders ran them
	outHash := fnv.New64a()
	for _, bt := range lengthSorted(srcs, *batch) {
		for _, j := range bt {
			for _, t := range best[j] {
				outHash.Write([]byte{byte(t), byte(t >> 8), byte(t >> 16), byte(t >> 24)})
			}
			outHash.Write([]byte{0xff, 0xff, 0xff, 0xff})
		}
	}
	for _, x := range srcs {
		srcTokens += len(x)
	}
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		check(err)
		runtime.GC() // the profile shows the heap as of the last completed GC cycle
		check(pprof.Lookup("heap").WriteTo(f, 0))
		check(f.Close())
	}
	out := map[string]any{
		"impl": "strata", "bench": "decode", "blas": blas.Default().Name(), "threads": *threads, "workers": *workers,
		"order":       map[bool]string{true: "shortest-first", false: "longest-first"}[*shortestFirst],
		"incremental": s.Incremental(), "weights": fmt.Sprintf("random(seed=%d)", *seed),
		"compute_type": *computeType, "half_cache": o.HalfCache(), "int8_kernel": engine.Int8KernelFor(*int8Bits), "int8_bits": *int8Bits, "f32_kernel": engine.F32Kernel(),
		"outputs_fnv64": fmt.Sprintf("%016x", outHash.Sum64()), "shortlist_rows": *shortlistRows,
		"sentences": len(srcs), "beam": *beam, "batch": *batch, "src_tokens": srcTokens,
		"generated_tokens": generated.Load(), "seconds": report.Round(el, 3), "cpu_seconds": report.Round(cpu, 3),
		"tokens_per_s": report.Round(float64(generated.Load())/el, 1), "sentences_per_s": report.Round(float64(len(srcs))/el, 2),
		// peak resident set, as the reference reports it (Go's HeapSys is not
		// comparable); taken before the floor's traced rerun, which holds
		// every product's operands
		"peak_rss_mb": report.Round(report.PeakRSSMB(), 1),
	}
	if *peakProfile != "" {
		out["peak_live_heap_mb"] = report.Round(peakLive(), 1)
	}
	if *floor {
		gemmFloor(out, *threads, int(generated.Load()), func() {
			for _, bt := range batches {
				s.Search(pick(srcs, bt), prefix)
			}
		})
	}
	js, _ := json.Marshal(out)
	fmt.Println(string(js))
}

// gemmFloor traces the matrix products of decode (the same run again,
// untimed) and times them replayed alone: no implementation making the
// same products on this BLAS decodes faster. It adds the floor's seconds
// and tokens/s to out.
func gemmFloor(out map[string]any, threads, generated int, decode func()) {
	stop := engine.TraceGemms()
	decode()
	calls := stop()
	flops := gemmfloor.TotalFlops(calls)
	start := time.Now()
	gemmfloor.Replay(calls, threads)
	el := time.Since(start).Seconds()
	out["gemm_calls"] = len(calls)
	out["gemm_gflop"] = report.Round(flops/1e9, 2)
	out["gemm_floor_seconds"] = report.Round(el, 3)
	out["gemm_floor_tokens_per_s"] = report.Round(float64(generated)/el, 1)
	fmt.Fprintf(os.Stderr, "matrix products alone: %d, %.1f GFLOP, %.2f s (%.0f GFLOP/s)\n", len(calls), flops/1e9, el, flops/1e9/el)
}

// randomShortlist writes a shortlist allowing n random target tokens to
// every batch (random weights have no lexical associations to learn) and
// returns its path.
func randomShortlist(n, vocab int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 3))
	sl := &decode.Shortlist{Header: decode.ShortlistHeader{Format: "strata-shortlist", Version: 1, Vocab: vocab, Frequent: n, Score: "random"},
		BySource: make([][]int32, vocab)}
	for _, t := range r.Perm(vocab)[:min(n, vocab)] {
		sl.Frequent = append(sl.Frequent, int32(t))
	}
	slices.Sort(sl.Frequent)
	f, err := os.CreateTemp("", "shortlist-*.txt")
	check(err)
	f.Close()
	check(sl.Save(f.Name()))
	return f.Name()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/decode:", err)
		os.Exit(1)
	}
}

// randomSources draws word ids uniformly from [NumSpecial, vocab) with
// lengths uniform in [lo, hi], EOS appended, as the reference does.
func randomSources(n, lo, hi, vocab int, seed uint64) [][]int32 {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([][]int32, n)
	for i := range out {
		l := lo + r.IntN(hi-lo+1)
		for j := 0; j < l; j++ {
			out[i] = append(out[i], int32(data.NumSpecial+r.IntN(vocab-data.NumSpecial)))
		}
		out[i] = append(out[i], data.EOSID)
	}
	return out
}

func readSources(path string) ([][]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]int32
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var ids []int32
		for _, w := range strings.Fields(sc.Text()) {
			v, err := strconv.Atoi(w)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not a token id", path, line, w)
			}
			ids = append(ids, int32(v))
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("%s:%d: empty source", path, line)
		}
		out = append(out, ids)
	}
	return out, sc.Err()
}

// lengthSorted groups source indices into batches after a stable sort by
// length, as the reference does.
func lengthSorted(srcs [][]int32, size int) [][]int {
	order := make([]int, len(srcs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(srcs[a]), len(srcs[b])) })
	var out [][]int
	for i := 0; i < len(order); i += size {
		out = append(out, order[i:min(i+size, len(order))])
	}
	return out
}

func pick(srcs [][]int32, idx []int) [][]int32 {
	out := make([][]int32, len(idx))
	for i, j := range idx {
		out[i] = srcs[j]
	}
	return out
}
