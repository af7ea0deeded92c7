// Command serve is the load benchmark of strata serve: it starts the
// server twice on loopback (dynamic batching on, and --no-batching, which
// decodes one request at a time per worker), sends both the same requests
// of 1-20 real sentences from 1, 8, 32 and 128 concurrent clients, in
// interleaved rounds, and prints lines/s, tokens/s, p50/p99 latency and the
// server's peak resident memory against its idle level after warm-up. It
// stops by itself after a bounded number of requests. bench/serve/run.sh
// shows how it is run; docs/performance.md has results.
//
// With --init it serves a freshly initialised model of the msc-small shape
// (6+6 layers, d=256, pre-norm) over --data's vocabulary, so the benchmark
// runs without a trained model; decoding cost depends on output lengths,
// which differ between a trained and a random model, so the two are not
// comparable with each other, only batching on with off.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/strata-nmt/strata/bench/internal/corpus"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/model"
)

// side is how many decoders of how many threads a server runs.
type side struct{ decoders, threads int }

func (s side) String() string {
	return fmt.Sprintf("%d decoder(s) x %d thread(s)", s.decoders, s.threads)
}

type config struct {
	strata, modelPath, dataDir, input string
	clients                           []int
	requests, maxLines, beam          int
	mixedBeams                        bool
	compute                           string
	on, off                           side
	extra                             []string
	timeout                           time.Duration
	hostile                           int
}

func main() {
	var c config
	var clients, extra string
	var initModel bool
	flag.StringVar(&c.strata, "strata", "", "strata binary (default: go build ./cmd/strata into a temporary directory)")
	flag.StringVar(&c.modelPath, "model", "", "model to serve: run directory or checkpoint")
	flag.BoolVar(&initModel, "init", false, "serve a freshly initialised msc-small pre-norm model instead of --model")
	flag.StringVar(&c.dataDir, "data", "", "data directory (vocabulary) of the model (default: the model's run.json)")
	flag.StringVar(&c.input, "input", "/work/shared/data/l10n/test/test.en", "sentences to send, one a line")
	flag.StringVar(&clients, "clients", "1,8,32,128", "concurrent clients, one round each")
	flag.IntVar(&c.requests, "requests", 8, "requests per round (at least one per client)")
	flag.IntVar(&c.maxLines, "max-lines", 20, "lines per request: uniform in 1..max-lines")
	flag.IntVar(&c.beam, "beam", 5, "beam size of every request")
	flag.BoolVar(&c.mixedBeams, "mixed-beams", false, "request i uses beam 1 + i mod 16 (memory under mixed beams)")
	flag.StringVar(&c.compute, "compute-type", "float32", "matrix products of both servers: float32 or int8")
	flag.IntVar(&c.on.decoders, "decoders", runtime.NumCPU(), "decoders of the batching server")
	flag.IntVar(&c.on.threads, "threads", 1, "compute threads of each decoder of the batching server")
	flag.IntVar(&c.off.decoders, "off-decoders", 0, "decoders of the one-at-a-time server (0: as --decoders)")
	flag.IntVar(&c.off.threads, "off-threads", 0, "threads of each decoder of the one-at-a-time server (0: as --threads)")
	flag.StringVar(&extra, "serve-flags", "", "further strata serve flags, space-separated")
	flag.DurationVar(&c.timeout, "round-timeout", 10*time.Minute, "abandon a round after this long")
	flag.IntVar(&c.hostile, "hostile", 0, "then N normal clients (2N requests) on the batching server, alone and with one hostile client (0: skip)")
	flag.Parse()
	for _, f := range strings.Split(clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		check(err)
		c.clients = append(c.clients, n)
	}
	c.extra = strings.Fields(extra)
	if c.off.decoders <= 0 {
		c.off.decoders = c.on.decoders
	}
	if c.off.threads <= 0 {
		c.off.threads = c.on.threads
	}
	if (c.modelPath == "") == !initModel || (initModel && c.dataDir == "") {
		fmt.Fprintln(os.Stderr, "usage: serve (--model RUN [--data DIR] | --init --data DIR) [flags]")
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "strata-bench-serve-")
	check(err)
	defer os.RemoveAll(tmp)
	if c.strata == "" {
		c.strata = filepath.Join(tmp, "strata")
		build := exec.Command("go", "build", "-o", c.strata, "./cmd/strata")
		build.Stderr = os.Stderr
		check(build.Run())
	}
	if initModel {
		c.modelPath = freshModel(c.dataDir, filepath.Join(tmp, "model.bin"))
	}
	lines, err := corpus.Sentences(c.input, 0)
	check(err)
	run(c, lines)
}

// freshModel saves a randomly initialised model of the msc-small shape
// with pre-norm over dataDir's vocabulary.
func freshModel(dataDir, path string) string {
	v, _, err := decode.OpenVocab(dataDir)
	check(err)
	cfg, err := model.Preset("msc-small")
	check(err)
	check(cfg.Override([]string{"encoder_norm=pre", "decoder_norm=pre"}))
	cfg.SrcVocab, cfg.TgtVocab, cfg.PadID = v.Size(), v.Size(), data.PadID
	m, err := model.New(cfg, 1)
	check(err)
	check(model.Save(path, m, nil))
	return path
}

// requests draws n requests of 1..maxLines consecutive sentences from a
// random place in lines; the same seed gives both servers the same work.
func requests(lines []string, n, maxLines int, seed uint64) [][]string {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([][]string, n)
	for i := range out {
		k := 1 + rng.IntN(maxLines)
		at := rng.IntN(len(lines))
		for j := 0; j < k; j++ {
			out[i] = append(out[i], lines[(at+j)%len(lines)])
		}
	}
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/serve:", err)
		os.Exit(1)
	}
}
