// Command batchcost measures what batching across requests can gain: the
// decoder's cost per generated token at the batch sizes a server decoding
// one request at a time sees (a request's own lines) against those the
// batcher forms, on real sentences with a trained model. For each batch
// size B it decodes the same lines twice, interleaved:
//
//   - "request": consecutive groups of B lines, each decoded on its own
//     (sorted by length within the group), as one request of B lines is;
//   - "sorted": all lines sorted by length and cut into batches of B, as
//     the batcher's lines from many requests are, so batches pad less.
//
// It prints generated tokens per CPU-second of this process (user+system)
// and per wall-second, each relative to the request order at B=1.
// bench/serve/run.sh shows how it is run; docs/performance.md has results.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/strata-nmt/strata/bench/internal/corpus"
	"github.com/strata-nmt/strata/bench/internal/report"

	"github.com/strata-nmt/strata/decode"
)

func main() {
	modelPath := flag.String("model", "models/l10n-en-de", "model (run or model directory, or checkpoint)")
	dataDir := flag.String("data", "", "data directory (default: the model's run.json)")
	input := flag.String("input", "/work/shared/data/l10n/test/test.en", "sentences, one a line")
	nLines := flag.Int("lines", 128, "lines decoded per measurement (the first of --input)")
	sizes := flag.String("batches", "1,2,5,10,32,64", "batch sizes in sentences")
	beam := flag.Int("beam", 5, "beam size")
	threads := flag.Int("threads", 1, "compute threads of the decoder")
	compute := flag.String("compute-type", "float32", "float32 or int8")
	maxRows := flag.Int("max-rows", 0, "decoder rows per step, as serve's --max-rows (0: no bound)")
	rounds := flag.Int("rounds", 2, "measurements of each setting (interleaved)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the measurements (not the warm-up) here")
	flag.Parse()

	b, err := decode.LoadEnsemble([]string{*modelPath}, *dataDir)
	check(err)
	o := decode.Defaults()
	o.Beam, o.MaxLenA, o.MaxLenB, o.ComputeType = *beam, 1.2, 10, *compute
	sr, err := b.Searcher(o)
	check(err)
	sr.SetThreads(*threads)
	runtime.GOMAXPROCS(max(*threads, 1))
	t := decode.NewTranslator(b, sr)
	t.MaxTokens, t.MaxRows = 0, *maxRows
	lines, err := corpus.Sentences(*input, *nLines)
	check(err)
	var bs []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		check(err)
		bs = append(bs, n)
	}
	fmt.Printf("model %s (%s), compute %s, beam %d, %d thread(s), %d lines of %s, max rows %d\n",
		b.Name(), b.Model.Config().Summary(), *compute, *beam, *threads, len(lines), *input, *maxRows)
	decodeAll(t, lines, bs[len(bs)-1], false) // warm-up: graphs, caches, arena

	if *profile != "" {
		f, err := os.Create(*profile)
		check(err)
		check(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	type acc struct{ tokens, cpu, wall float64 }
	res := map[[2]int]*acc{}
	for r := 0; r < *rounds; r++ {
		for _, B := range bs {
			for _, sorted := range []bool{r%2 == 1, r%2 == 0} { // alternate the order
				k := [2]int{B, map[bool]int{false: 0, true: 1}[sorted]}
				if res[k] == nil {
					res[k] = &acc{}
				}
				tok, cpu, wall := decodeAll(t, lines, B, sorted)
				res[k].tokens += tok
				res[k].cpu += cpu
				res[k].wall += wall
			}
		}
	}
	base := res[[2]int{bs[0], 0}]
	fmt.Println("| batch (sentences) | order | rows | tokens | tokens per CPU-s | vs request B=1 | tokens per s | vs request B=1 |")
	fmt.Println("| --: | --- | --: | --: | --: | --: | --: | --: |")
	for _, B := range bs {
		for s, name := range []string{"request", "sorted"} {
			a := res[[2]int{B, s}]
			fmt.Printf("| %d | %s | %d | %.0f | %.0f | %.2fx | %.0f | %.2fx |\n", B, name, B**beam, a.tokens/float64(*rounds),
				a.tokens/a.cpu, (a.tokens/a.cpu)/(base.tokens/base.cpu), a.tokens/a.wall, (a.tokens/a.wall)/(base.tokens/base.wall))
		}
	}
}

// decodeAll decodes lines in batches of B sentences, in request order
// (consecutive groups) or sorted by length over all lines; it returns the
// generated tokens, the CPU-seconds and the wall-seconds it took.
func decodeAll(t *decode.Translator, lines []string, B int, sorted bool) (tokens, cpu, wall float64) {
	tok0, cpu0, start := t.Stats.Tokens, report.CPUSeconds(), time.Now()
	if sorted {
		t.BatchSize = B
		_, err := t.Lines(lines, "", "", "")
		check(err)
	} else {
		t.BatchSize = max(B, 1)
		for i := 0; i < len(lines); i += B {
			_, err := t.Lines(lines[i:min(i+B, len(lines))], "", "", "")
			check(err)
		}
	}
	return float64(t.Stats.Tokens - tok0), report.CPUSeconds() - cpu0, time.Since(start).Seconds()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/serve/batchcost:", err)
		os.Exit(1)
	}
}
