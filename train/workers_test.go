package train

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/model"
)

// workerConfigs are small models with every kind of dropout on: the masks
// must be those of the unsplit batch.
func workerConfigs(t *testing.T) map[string]model.Config {
	tiny, _ := model.Preset("tiny")
	tiny.Dropout, tiny.AttentionDropout, tiny.ActivationDropout = 0.1, 0.1, 0.1
	deep, err := model.Preset("transparent-6")
	if err != nil {
		t.Fatal(err)
	}
	deep.DModel, deep.FFN, deep.Heads = 32, 64, 2
	deep.AttentionDropout, deep.ActivationDropout = 0.1, 0.1
	out := map[string]model.Config{"transformer": tiny, "transparent": deep}
	for k, c := range out {
		c.SrcVocab, c.TgtVocab = 14, 14
		out[k] = c
	}
	return out
}

type gradResult struct {
	loss, nll float64
	tokens    int
	grads     map[string][]float32
	held      int
}

// workerGradient is the summed loss and gradient of two batches (an
// update-freq 2 group) computed by n workers, each running its shard in
// the given number of pieces; held is the most any worker's arena held.
func workerGradient(t *testing.T, cfg model.Config, n, pieces int) gradResult {
	t.Helper()
	m, err := model.New(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorkers(m, n, n, 7)
	w.SetMicroBatches(pieces)
	w.ZeroGrad()
	task := copyTask(10)
	task.BatchSize = 13 // shards of unequal size for n = 2 and 3
	_, batch := task.Epoch(1)
	var r gradResult
	for i := range 2 {
		w.Graph().SetRNGState(7, uint64(i)<<16)
		l, nl, tok := w.Backward(batch(i), 0.1, 1)
		r.loss, r.nll, r.tokens = r.loss+l, r.nll+nl, r.tokens+tok
	}
	w.Reduce()
	for _, g := range w.graphs {
		r.held = max(r.held, g.HeldBytes())
	}
	r.grads = map[string][]float32{}
	for _, p := range m.Params().List() {
		r.grads[p.Name] = append([]float32(nil), p.Grad...)
	}
	return r
}

// Splitting a batch over workers changes nothing but float summation
// order: the same loss, tokens and gradient (a dropped or doubled shard,
// or a mask that depends on the split, changes them by far more).
func TestWorkersMatchOneWorker(t *testing.T) {
	for name, cfg := range workerConfigs(t) {
		t.Run(name, func(t *testing.T) {
			want := workerGradient(t, cfg, 1, 1)
			for _, n := range []int{2, 3} {
				sameGradient(t, fmt.Sprintf("%d workers", n), workerGradient(t, cfg, n, 1), want)
			}
		})
	}
}

// Micro-batches are the same split run one piece after another: the same
// loss and gradient, within a worker's shard too, in less memory.
func TestMicroBatchesMatchTheWholeBatch(t *testing.T) {
	for name, cfg := range workerConfigs(t) {
		t.Run(name, func(t *testing.T) {
			want := workerGradient(t, cfg, 1, 1)
			for _, c := range [][2]int{{1, 2}, {1, 4}, {2, 2}} {
				got := workerGradient(t, cfg, c[0], c[1])
				sameGradient(t, fmt.Sprintf("%d workers × %d pieces", c[0], c[1]), got, want)
				// (the parts that do not shrink with the batch keep it above 1/4)
				if c == [2]int{1, 4} && 2*got.held > want.held {
					t.Errorf("4 pieces: the arena held %d bytes, over half the whole batch's %d", got.held, want.held)
				}
			}
		})
	}
}

// sameGradient fails t unless got is want but for float summation order.
func sameGradient(t *testing.T, what string, got, want gradResult) {
	t.Helper()
	if got.tokens != want.tokens {
		t.Fatalf("%s: %d target tokens, want %d", what, got.tokens, want.tokens)
	}
	if math.Abs(got.loss-want.loss) > 1e-5*want.loss || math.Abs(got.nll-want.nll) > 1e-5*want.nll {
		t.Errorf("%s: loss %.6f nll %.6f, want %.6f %.6f", what, got.loss, got.nll, want.loss, want.nll)
	}
	for p, g := range want.grads {
		if d, scale := maxDiff(got.grads[p], g); d > 1e-4*scale+1e-6 {
			t.Errorf("%s: gradient of %s differs by %.3g (largest entry %.3g)", what, p, d, scale)
		}
	}
}

// A run with two workers trains as one with one: the same losses update
// by update (dropout on), across a resume.
func TestTrainingWithWorkersMatchesOne(t *testing.T) {
	run := func(workers int) []float64 {
		o := tinyOpts(t, 10)
		o.Model.AttentionDropout = 0.1
		o.Workers, o.MaxUpdate, o.SaveInterval = workers, 8, 4
		task := copyTask(10)
		o.StopAfter = 4
		if _, err := Run(context.Background(), o, task, task.Valid(2)); err != nil {
			t.Fatal(err)
		}
		o.StopAfter, o.Resume = 0, true
		res, err := Run(context.Background(), o, task, task.Valid(2))
		if err != nil {
			t.Fatal(err)
		}
		return res.UpdateLoss
	}
	want, got := run(1), run(2)
	if len(got) != len(want) || len(want) != 4 {
		t.Fatalf("resumed runs did %d and %d updates, want 4", len(want), len(got))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-4*want[i] {
			t.Errorf("update %d: loss %.6f with 2 workers, %.6f with 1", i+5, got[i], want[i])
		}
	}
}

func TestShardCoversBatch(t *testing.T) {
	for b := 1; b < 20; b++ {
		for n := 1; n < 5; n++ {
			next := 0
			for i := 0; i < n; i++ {
				lo, hi := Shard(b, n, i)
				if lo != next || hi < lo || hi-lo > (b+n-1)/n {
					t.Fatalf("Shard(%d, %d, %d) = [%d, %d) after %d", b, n, i, lo, hi, next)
				}
				next = hi
			}
			if next != b {
				t.Fatalf("shards of %d sentences over %d workers end at %d", b, n, next)
			}
		}
	}
}

// Dropping the graphs' cached buffers between batches (as validation
// does) leaves nothing held and changes nothing: the next batch computes
// the same loss and gradient, bit for bit, on fresh buffers.
func TestDropCachesChangesNothing(t *testing.T) {
	cfg := workerConfigs(t)["transformer"]
	run := func(drop bool) (float64, []float32) {
		m, err := model.New(cfg, 3)
		if err != nil {
			t.Fatal(err)
		}
		w := NewWorkers(m, 2, 2, 7)
		w.ZeroGrad()
		_, batch := copyTask(10).Epoch(1)
		var loss float64
		for i := range 2 {
			if drop && i == 1 {
				w.DropCaches()
				for _, g := range w.graphs {
					if g.HeldBytes() != 0 {
						t.Fatalf("a graph holds %d bytes after DropCaches", g.HeldBytes())
					}
				}
			}
			w.Graph().SetRNGState(7, uint64(i)<<16)
			l, _, _ := w.Backward(batch(i), 0.1, 1)
			loss += l
		}
		w.Reduce()
		var grads []float32
		for _, p := range m.Params().List() {
			grads = append(grads, p.Grad...)
		}
		return loss, grads
	}
	wantLoss, want := run(false)
	gotLoss, got := run(true)
	if gotLoss != wantLoss || !slices.Equal(got, want) {
		t.Errorf("after DropCaches: loss %v, want %v; gradients equal: %v", gotLoss, wantLoss, slices.Equal(got, want))
	}
}
