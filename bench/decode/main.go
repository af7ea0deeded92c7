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

// flags are the benchmark's settings.
type flags struct {
	sentences, minLen, maxLen, batch, beam, b, vocab  int
	layers, dim, ffn, heads, threads, workers, warmup int
	int8Bits, shortlistRows                           int
	a                                                 float64
	sources, cpuProfile, memProfile, peakProfile      string
	computeType, cacheType                            string
	shortestFirst, recompute, floor                   bool
	seed                                              uint64
}

func parseFlags() *flags {
	f := &flags{}
	flag.IntVar(&f.sentences, "sentences", 500, "random sources to decode (without --sources)")
	flag.IntVar(&f.minLen, "min-src-len", 10, "fewest word ids per random source")
	flag.IntVar(&f.maxLen, "max-src-len", 40, "most word ids per random source")
	flag.StringVar(&f.sources, "sources", "", "decode these sources (ids, EOS included, one sentence a line)")
	flag.IntVar(&f.batch, "batch", 32, "sentences per batch")
	flag.IntVar(&f.beam, "beam", 5, "beam size")
	flag.Float64Var(&f.a, "max-len-a", 1.2, "max_len = a·S + b")
	flag.IntVar(&f.b, "max-len-b", 10, "max_len = a·S + b")
	flag.IntVar(&f.vocab, "vocab", 8000, "vocabulary size")
	flag.IntVar(&f.layers, "layers", 6, "encoder and decoder layers")
	flag.IntVar(&f.dim, "dim", 256, "model width")
	flag.IntVar(&f.ffn, "ffn-dim", 1024, "feed-forward width")
	flag.IntVar(&f.heads, "heads", 4, "attention heads")
	flag.IntVar(&f.threads, "threads", 2, "kernel threads (GOMAXPROCS)")
	flag.IntVar(&f.workers, "decoders", 0, "batches decoded at once, each by its own searcher with threads/decoders kernel threads (0: decode.DefaultWorkers, as strata translate)")
	flag.IntVar(&f.workers, "workers", 0, "the same as --decoders")
	flag.BoolVar(&f.shortestFirst, "shortest-first", false, "decode the length-sorted batches shortest first, as the reference does (default: longest first, as strata translate does)")
	flag.IntVar(&f.warmup, "warmup-batches", 1, "batches decoded once, untimed, first")
	flag.BoolVar(&f.recompute, "recompute", false, "re-run the decoder over whole prefixes (no incremental state)")
	flag.Uint64Var(&f.seed, "seed", 1, "seed of weights and sources")
	flag.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile here")
	flag.StringVar(&f.memProfile, "memprofile", "", "write a heap profile (live objects after the timed run) here")
	flag.StringVar(&f.peakProfile, "peak-memprofile", "", "write the heap profile of the largest live heap of the run here (sampled every 50 ms)")
	flag.BoolVar(&f.floor, "gemm-floor", false, "also replay the run's matrix products alone (its floor on this BLAS)")
	flag.StringVar(&f.computeType, "compute-type", "float32", "float32 or int8")
	flag.StringVar(&f.cacheType, "cache-type", "", "decoder cache float32 or float16 (default: float16 with int8, as strata translate)")
	flag.IntVar(&f.int8Bits, "int8-bits", 0, "with int8, the activation width, 8 or 7 (0: the engine's default, as strata translate)")
	flag.IntVar(&f.shortlistRows, "shortlist-rows", 0, "decode over a fixed random shortlist of this many target tokens (0: none)")
	flag.Parse()
	return f
}

func main() {
	f := parseFlags()
	if f.cpuProfile != "" {
		w, err := os.Create(f.cpuProfile)
		check(err)
		check(pprof.StartCPUProfile(w))
		defer pprof.StopCPUProfile()
	}
	runtime.GOMAXPROCS(f.threads)
	peakLive := func() float64 { return 0 }
	if f.peakProfile != "" {
		peakLive = peakHeapProfiler(f.peakProfile)
	}
	decode.TightGC() // as strata translate

	srcs := randomSources(f.sentences, f.minLen, f.maxLen, f.vocab, f.seed)
	if f.sources != "" {
		var err error
		srcs, err = readSources(f.sources)
		check(err)
	}
	o := decode.Defaults()
	o.Beam, o.NBest, o.MaxLenA, o.MaxLenB, o.BatchMaxLen = f.beam, 1, f.a, f.b, true
	o.ComputeType, o.CacheType, o.Int8Bits = f.computeType, f.cacheType, f.int8Bits
	if f.shortlistRows > 0 {
		o.Shortlist = randomShortlist(f.shortlistRows, f.vocab, f.seed)
		defer os.Remove(o.Shortlist)
	}
	s, pool := searchers(f, o)
	batches := lengthSorted(srcs, f.batch)
	if !f.shortestFirst {
		slices.Reverse(batches)
	}
	r := timedRun(f, pool, srcs, batches)
	if f.memProfile != "" {
		writeHeapProfile(f.memProfile)
	}
	out := result(f, o, s, srcs, r)
	if f.peakProfile != "" {
		out["peak_live_heap_mb"] = report.Round(peakLive(), 1)
	}
	if f.floor {
		gemmFloor(out, f.threads, int(r.generated), func() {
			for _, bt := range batches {
				s.Search(pick(srcs, bt), prefix)
			}
		})
	}
	js, _ := json.Marshal(out)
	fmt.Println(string(js))
}

// prefix starts every output, as in strata translate without a target tag.
var prefix = []int32{data.DecoderStart}

// searchers builds the model of random weights and the pool that decodes
// with it. Searchers come from a bundle, as in strata translate: an int8
// one releases the float32 projections.
func searchers(f *flags, o decode.Options) (*decode.Searcher, *decode.Pool) {
	cfg, _ := model.Preset("tiny")
	cfg.EncoderLayers, cfg.DecoderLayers, cfg.DModel, cfg.FFN, cfg.Heads = f.layers, f.layers, f.dim, f.ffn, f.heads
	cfg.SrcVocab, cfg.TgtVocab = f.vocab, f.vocab
	m, err := model.New(cfg, f.seed)
	check(err)
	m.Params().DropGrads() // as decode.Load does
	bundle := &decode.Bundle{Model: m}
	newSearcher := func() (*decode.Searcher, error) {
		x, err := bundle.Searcher(o)
		if err == nil && f.recompute {
			x.ForceRecompute()
		}
		return x, err
	}
	s, err := newSearcher()
	check(err)
	s.SetThreads(f.threads)
	if f.workers == 0 {
		f.workers = decode.DefaultWorkers(f.threads)
	}
	pool, err := decode.NewPool(s, f.workers, f.threads, newSearcher)
	check(err)
	return s, pool
}

// run is what the timed run measured.
type run struct {
	generated, seconds, cpu float64
	best                    [][]int32 // each source's best output
}

// timedRun decodes warm-up batches untimed, then every batch timed.
func timedRun(f *flags, pool *decode.Pool, srcs [][]int32, batches [][]int) run {
	batchSrcs := func(i int) [][]int32 { return pick(srcs, batches[i]) }
	// every worker decodes warm-up batches, so that none starts cold: with
	// W workers, the first W batches (those W workers take first in the
	// timed run too)
	check(pool.Run(min(f.warmup*f.workers, len(batches)), batchSrcs, prefix, func(int, [][]decode.Hypothesis) error { return nil }))
	var generated atomic.Int64
	var finished atomic.Int32
	start, cpu0 := time.Now(), report.CPUSeconds()
	best := make([][]int32, len(srcs))
	check(pool.Run(len(batches), batchSrcs, prefix, func(i int, res [][]decode.Hypothesis) error {
		for k, hyps := range res {
			generated.Add(int64(len(hyps[0].Tokens)))
			best[batches[i][k]] = hyps[0].Tokens
		}
		n := finished.Add(1)
		fmt.Fprintf(os.Stderr, "batch %d/%d %.2f sent/s\n", n, len(batches), float64(int(n)*len(batches[i]))/time.Since(start).Seconds())
		return nil
	}))
	return run{float64(generated.Load()), time.Since(start).Seconds(), report.CPUSeconds() - cpu0, best}
}

// outputsHash hashes every output, to compare two builds' translations: in
// the order of the shortest-first batches, whatever order or decoders ran
// them.
func outputsHash(srcs, best [][]int32, batch int) string {
	h := fnv.New64a()
	for _, bt := range lengthSorted(srcs, batch) {
		for _, j := range bt {
			for _, t := range best[j] {
				h.Write([]byte{byte(t), byte(t >> 8), byte(t >> 16), byte(t >> 24)})
			}
			h.Write([]byte{0xff, 0xff, 0xff, 0xff})
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// writeHeapProfile writes the live heap after the timed run.
func writeHeapProfile(path string) {
	w, err := os.Create(path)
	check(err)
	runtime.GC() // the profile shows the heap as of the last completed GC cycle
	check(pprof.Lookup("heap").WriteTo(w, 0))
	check(w.Close())
}

// result is the JSON line, in the reference's format.
func result(f *flags, o decode.Options, s *decode.Searcher, srcs [][]int32, r run) map[string]any {
	srcTokens := 0
	for _, x := range srcs {
		srcTokens += len(x)
	}
	return map[string]any{
		"impl": "strata", "bench": "decode", "blas": blas.Default().Name(), "threads": f.threads, "workers": f.workers,
		"order":       map[bool]string{true: "shortest-first", false: "longest-first"}[f.shortestFirst],
		"incremental": s.Incremental(), "weights": fmt.Sprintf("random(seed=%d)", f.seed),
		"compute_type": f.computeType, "half_cache": o.HalfCache(), "int8_kernel": engine.Int8KernelFor(f.int8Bits), "int8_bits": f.int8Bits, "f32_kernel": engine.F32Kernel(),
		"outputs_fnv64": outputsHash(srcs, r.best, f.batch), "shortlist_rows": f.shortlistRows,
		"sentences": len(srcs), "beam": f.beam, "batch": f.batch, "src_tokens": srcTokens,
		"generated_tokens": int64(r.generated), "seconds": report.Round(r.seconds, 3), "cpu_seconds": report.Round(r.cpu, 3),
		"tokens_per_s": report.Round(r.generated/r.seconds, 1), "sentences_per_s": report.Round(float64(len(srcs))/r.seconds, 2),
		// peak resident set, as the reference reports it (Go's HeapSys is not
		// comparable); taken before the floor's traced rerun, which holds
		// every product's operands
		"peak_rss_mb": report.Round(report.PeakRSSMB(), 1),
	}
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
