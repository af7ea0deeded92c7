// Command distributed-bench measures data-parallel training (docs/distributed.md).
//
//	distributed-bench train [flags]      # alone, or under mpirun -np N
//	distributed-bench allreduce [flags]  # under mpirun -np N
//
// train trains the 6+6-layer d=256 Transformer of the msc-small preset
// (ffn 512, 4 heads, shared vocabulary of 8000) on random 32-token
// sentences, batches of -batch-sentences per rank, and prints one JSON
// line (rank 0): global target tokens/s and seconds per update over the
// updates after -warmup, and the all-reduce seconds per update.
// allreduce times MPI_Allreduce (float32 sum, in place) of buffers of
// -sizes parameters and prints one JSON line per size. run.sh runs both.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/strata-nmt/strata/engine/mpi"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/train"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: distributed-bench train|allreduce [flags]")
	}
	comm, err := mpi.Init()
	if err != nil {
		log.Fatal(err)
	}
	defer comm.Finalize()
	switch os.Args[1] {
	case "train":
		err = benchTrain(comm, os.Args[2:])
	case "allreduce":
		err = benchAllreduce(comm, os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q (train or allreduce)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", comm.Rank(), err)
		comm.Abort(1)
	}
}

func benchTrain(comm mpi.Comm, args []string) error {
	fs := flag.NewFlagSet("train", flag.ExitOnError)
	updates := fs.Int("updates", 12, "timed updates")
	warmup := fs.Int("warmup", 2, "untimed updates first")
	threads := fs.Int("threads", 1, "kernel threads per process")
	freq := fs.Int("update-freq", 1, "batches per rank per update")
	sents := fs.Int("batch-sentences", 64, "sentences per batch (32 tokens each)")
	fs.Parse(args)
	cfg, _ := model.Preset("msc-small")
	cfg.SrcVocab, cfg.TgtVocab = 8004, 8004
	o := train.Defaults()
	o.Model, o.Threads, o.UpdateFreq, o.Comm = cfg, *threads, *freq, comm
	o.MaxUpdate, o.LogInterval = *warmup+*updates, 1000
	o.SaveDir = os.Getenv("BENCH_DIR")
	if o.SaveDir == "" {
		return fmt.Errorf("set BENCH_DIR to a scratch directory (shared by the ranks)")
	}
	src := train.Synthetic{Seed: 3, Symbols: 8000, First: 4, MinLen: 31, MaxLen: 31, BatchSize: *sents,
		Count: 100000, BOS: 1, EOS: 2, Pad: 0}
	res, err := train.Run(context.Background(), o, src, nil)
	if err != nil || comm.Rank() != 0 {
		return err
	}
	tok, sec, comms, err := timed(filepath.Join(o.SaveDir, "metrics.jsonl"), *warmup)
	if err != nil {
		return err
	}
	n := float64(*updates)
	b, _ := json.Marshal(map[string]any{
		"setup":        fmt.Sprintf("%d ranks x %d threads, update-freq %d", comm.Size(), *threads, *freq),
		"tokens_per_s": round(tok / sec), "s_per_update": round(sec / n), "allreduce_s_per_update": round(comms / n),
		"tokens_per_update": round(tok / n), "updates": res.Updates})
	fmt.Println(string(b))
	return nil
}

// timed sums tokens, wall time and all-reduce time of the updates after
// the first skip in a metrics.jsonl.
func timed(path string, skip int) (tokens, sec, comm float64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	var start, end float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			Type      string
			Update    int
			Tokens    float64
			Wall      float64
			Allreduce float64 `json:"allreduce_s"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Type != "train" {
			continue
		}
		if r.Update == skip {
			start = r.Wall
		}
		if r.Update > skip {
			tokens, comm, end = tokens+r.Tokens, comm+r.Allreduce, r.Wall
		}
	}
	return tokens, end - start, comm, sc.Err()
}

func benchAllreduce(comm mpi.Comm, args []string) error {
	fs := flag.NewFlagSet("allreduce", flag.ExitOnError)
	sizes := fs.String("sizes", "10e6,45e6,200e6", "parameter counts")
	reps := fs.Int("reps", 5, "timed all-reduces per size (after one untimed)")
	fs.Parse(args)
	for _, s := range strings.Split(*sizes, ",") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		buf := make([]float32, int(f))
		for i := range buf {
			buf[i] = 1
		}
		var times []float64
		for r := 0; r <= *reps; r++ {
			if err := comm.Barrier(); err != nil {
				return err
			}
			t := time.Now()
			if err := comm.AllreduceSum(buf); err != nil {
				return err
			}
			if r > 0 {
				times = append(times, time.Since(t).Seconds())
			}
		}
		if comm.Rank() == 0 {
			t := median(times)
			bytes := 4 * f
			n := float64(comm.Size())
			b, _ := json.Marshal(map[string]any{"params": f, "ranks": comm.Size(), "median_s": round(t),
				"min_s": round(slices.Min(times)), "max_s": round(slices.Max(times)),
				"algbw_GBps": round(bytes / t / 1e9), "busbw_GBps": round(2 * (n - 1) / n * bytes / t / 1e9),
				"transport": os.Getenv("OMPI_MCA_btl")})
			fmt.Println(string(b))
		}
	}
	return nil
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

func round(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return v
}
