package train

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

func tinyOpts(t *testing.T, symbols int) Options {
	o := Defaults()
	cfg, _ := model.Preset("tiny")
	cfg.SrcVocab, cfg.TgtVocab = symbols+4, symbols+4
	cfg.Dropout = 0.1
	o.Model = cfg
	o.LR, o.WarmupUpdates, o.WarmupInitLR = 3e-3, 30, 1e-7
	o.SaveDir = t.TempDir()
	o.Threads = 2
	return o
}

func copyTask(symbols int) Synthetic {
	return Synthetic{Seed: 5, Symbols: symbols, First: 4, MinLen: 3, MaxLen: 8, BatchSize: 32, Count: 50,
		BOS: 1, EOS: 2, Pad: 0}
}

// The tiny model must learn to copy random strings: near-zero loss and
// exact greedy reconstruction of held-out strings.
func TestTinyModelLearnsToCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for ~20 s")
	}
	o := tinyOpts(t, 10)
	o.MaxUpdate = 400
	o.LabelSmoothing = 0
	task := copyTask(10)
	res, err := Run(context.Background(), o, task, task.Valid(4))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("valid nll %.4f bits/token after %d updates (%.0f tok/s)", res.LastValid, res.Updates, res.TokensPerS)
	if res.LastValid > 0.05 {
		t.Fatalf("copy task not learned: valid loss %.4f bits/token", res.LastValid)
	}
	m, err := model.Load(filepath.Join(o.SaveDir, rundir.BestCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	// Near-zero loss leaves room for a rare slip on a held-out string (the
	// exact count depends on float rounding); more than one in 20 is a bug.
	src, tgt := task.Pairs(20, 99)
	wrong := 0
	for i := range src {
		if got := greedy(m, src[i], len(tgt[i])+5); !slices.Equal(got, tgt[i]) {
			wrong++
			t.Logf("sentence %d: copied %v as %v", i, src[i], got)
		}
	}
	if wrong > 1 {
		t.Fatalf("%d of %d held-out strings miscopied", wrong, len(src))
	}
}

// Resume equals uninterrupted: a run stopped at update 12 and resumed must
// reproduce, update for update, the losses of a run that never stopped.
func TestResumeEqualsUninterrupted(t *testing.T) {
	task := copyTask(10)
	task.Count = 7 // cross an epoch boundary
	valid := task.Valid(1)
	full := tinyOpts(t, 10)
	full.MaxUpdate, full.SaveInterval, full.ValidInterval, full.UpdateFreq = 20, 4, 5, 2
	a, err := Run(context.Background(), full, task, valid)
	if err != nil {
		t.Fatal(err)
	}
	part := full
	part.SaveDir = t.TempDir()
	part.StopAfter = 12 // simulated crash after the checkpoint at update 12
	b1, err := Run(context.Background(), part, task, valid)
	if err != nil || b1.Stopped != "interrupted" {
		t.Fatalf("first half: %v %+v", err, b1)
	}
	part.StopAfter, part.Resume = 0, true
	b2, err := Run(context.Background(), part, task, valid)
	if err != nil {
		t.Fatal(err)
	}
	got := append(b1.UpdateLoss, b2.UpdateLoss...)
	if len(got) != len(a.UpdateLoss) {
		t.Fatalf("%d updates resumed vs %d uninterrupted", len(got), len(a.UpdateLoss))
	}
	for i := range got {
		if got[i] != a.UpdateLoss[i] {
			t.Fatalf("update %d: loss %v after resume, %v uninterrupted", i+1, got[i], a.UpdateLoss[i])
		}
	}
	if a.BestValid != b2.BestValid {
		t.Fatalf("best valid %v vs %v", b2.BestValid, a.BestValid)
	}
}

func TestEveryNormPlacementTrains(t *testing.T) {
	for _, norm := range []model.Norm{model.NormPost, model.NormPre, model.NormSwapPre} {
		o := tinyOpts(t, 10)
		o.Model.EncoderNorm, o.Model.DecoderNorm = norm, norm
		o.MaxUpdate = 60
		task := copyTask(10)
		res, err := Run(context.Background(), o, task, nil)
		if err != nil {
			t.Fatal(err)
		}
		first, last := res.UpdateLoss[0], mean(res.UpdateLoss[50:])
		t.Logf("%s: loss %.3f -> %.3f bits", norm, first, last)
		if !(last < first-1) {
			t.Fatalf("%s: loss did not fall (%.3f -> %.3f)", norm, first, last)
		}
	}
}

func TestDivergenceStopsWithClearError(t *testing.T) {
	o := tinyOpts(t, 10)
	o.MaxUpdate, o.MaxBadUpdates = 50, 3
	o.LR, o.WarmupUpdates = 1e30, 0 // explodes immediately
	_, err := Run(context.Background(), o, copyTask(10), nil)
	if err == nil || !strings.Contains(err.Error(), "diverged") {
		t.Fatalf("want a divergence error, got %v", err)
	}
}

func TestResumeRefusesOtherArchitecture(t *testing.T) {
	o := tinyOpts(t, 10)
	o.MaxUpdate, o.SaveInterval = 2, 2
	if _, err := Run(context.Background(), o, copyTask(10), nil); err != nil {
		t.Fatal(err)
	}
	o.Model.EncoderLayers = 3
	o.Resume = true
	_, err := Run(context.Background(), o, copyTask(10), nil)
	if err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("want an architecture mismatch error, got %v", err)
	}
	// a foreign file in place of the checkpoint
	os.WriteFile(filepath.Join(o.SaveDir, rundir.LastCheckpoint), []byte("not a checkpoint"), 0o644)
	if _, err := Run(context.Background(), o, copyTask(10), nil); err == nil || !strings.Contains(err.Error(), "not a strata") {
		t.Fatalf("want a clear error for a foreign checkpoint, got %v", err)
	}
}

func TestInverseSqrtSchedule(t *testing.T) {
	s := InverseSqrt{Peak: 1e-3, Warmup: 4000}
	if s.LR(0) != 0 || math.Abs(s.LR(2000)-5e-4) > 1e-12 || math.Abs(s.LR(4000)-1e-3) > 1e-12 ||
		math.Abs(s.LR(16000)-5e-4) > 1e-12 {
		t.Fatalf("schedule: %v %v %v %v", s.LR(0), s.LR(2000), s.LR(4000), s.LR(16000))
	}
}

// Each schedule at the ends of its warm-up and decay, and halfway: the
// values fairseq's schedulers give for the same settings.
func TestSchedules(t *testing.T) {
	const peak, minLR, warm, total = 1e-3, 1e-5, 100, 1100
	cases := []struct {
		name string
		at   map[int]float64
	}{
		{SchedInverseSqrt, map[int]float64{0: 0, 50: 5e-4, 100: peak, 400: 5e-4}},
		{SchedCosine, map[int]float64{0: 0, 50: 5e-4, 100: peak, 600: (peak + minLR) / 2, 1100: minLR, 5000: minLR}},
		{SchedPolynomial, map[int]float64{0: 0, 50: 5e-4, 100: peak, 350: minLR + 0.75*(peak-minLR), 1100: minLR, 5000: minLR}},
		{SchedFixed, map[int]float64{0: 0, 50: 5e-4, 100: peak, 5000: peak}},
	}
	for _, c := range cases {
		s, err := NewSchedule(c.name, peak, 0, warm, total, minLR)
		if err != nil {
			t.Fatal(err)
		}
		for n, want := range c.at {
			if got := s.LR(n); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: lr after %d updates is %g, want %g", c.name, n, got, want)
			}
		}
	}
	if _, err := NewSchedule(SchedCosine, peak, 0, warm, warm, 0); err == nil {
		t.Error("cosine without updates after the warm-up was accepted")
	}
	if _, err := NewSchedule("step", peak, 0, warm, total, 0); err == nil {
		t.Error("an unknown schedule was accepted")
	}
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// With a validation score as the best-checkpoint metric, checkpoint_best
// is the update where the score peaked (not where the NLL was lowest; on a
// tie the newer, as fairseq) and patience counts validations without a
// strictly higher score.
func TestBestCheckpointFollowsScore(t *testing.T) {
	task := copyTask(10)
	o := tinyOpts(t, 10)
	o.MaxUpdate, o.ValidInterval, o.SaveInterval, o.Patience = 12, 2, 2, 3
	o.BestMetric = "score"
	scores := []float64{1, 5, 3, 5, 2, 6} // the peak at update 4, tied at 8, then lower
	calls := 0
	o.ValidHook = func(model.Model) (map[string]float64, error) {
		calls++
		return map[string]float64{"score": scores[calls-1]}, nil
	}
	res, err := Run(context.Background(), o, task, task.Valid(1))
	if err != nil {
		t.Fatal(err)
	}
	if res.Updates != 10 || res.Stopped != "validation score did not improve for 3 validations" {
		t.Fatalf("stopped at update %d (%q), want patience to stop it after the validation at 10", res.Updates, res.Stopped)
	}
	best, err := os.ReadFile(filepath.Join(o.SaveDir, rundir.BestCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	at8, err := os.ReadFile(filepath.Join(o.SaveDir, "checkpoint_8.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if string(best) != string(at8) {
		t.Fatal("checkpoint_best.bin is not the checkpoint of update 8, the newer of the two peaks")
	}
	o.ValidHook = nil
	if _, err := Run(context.Background(), o, task, task.Valid(1)); err == nil || !strings.Contains(err.Error(), "--eval-bleu") {
		t.Fatalf("a score metric without a hook: %v", err)
	}
}
