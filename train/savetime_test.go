package train

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

// A time-based save writes checkpoint_last.bin alone (nothing numbered),
// and a run that dies after it without saving (here a failing validation
// hook stands in for a crash or an out-of-memory kill) resumes from it as
// if it had never stopped.
func TestTimeBasedSaveResumesAfterACrash(t *testing.T) {
	opts := func(hook func(model.Model) (map[string]float64, error)) Options {
		o := tinyOpts(t, 10)
		o.MaxUpdate, o.ValidInterval, o.SaveInterval, o.SaveTime = 8, 3, 1000, time.Nanosecond
		o.ValidHook = hook
		return o
	}
	ok := func(model.Model) (map[string]float64, error) { return nil, nil }
	task := copyTask(10)
	want, err := Run(context.Background(), opts(ok), task, task.Valid(2))
	if err != nil {
		t.Fatal(err)
	}

	crash := errors.New("crash")
	o := opts(func(model.Model) (map[string]float64, error) { return nil, crash })
	if _, err := Run(context.Background(), o, task, task.Valid(2)); !errors.Is(err, crash) {
		t.Fatalf("the run did not die at its first validation: %v", err)
	}
	if ups, _ := rundir.Numbered(o.SaveDir); len(ups) != 0 {
		t.Errorf("time-based saves wrote numbered checkpoints %v", ups)
	}
	st, err := rundir.ReadStatus("", o.SaveDir)
	if err != nil || st.LastCheckpoint == nil || st.LastCheckpoint.Update != 2 {
		t.Fatalf("checkpoint_last.bin after dying at update 3: %+v %v, want update 2", st, err)
	}
	if _, err := os.Stat(filepath.Join(o.SaveDir, rundir.LastCheckpoint)); err != nil {
		t.Fatal(err)
	}

	o.ValidHook, o.Resume = ok, true
	got, err := Run(context.Background(), o, task, task.Valid(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.UpdateLoss) != 6 || len(want.UpdateLoss) != 8 {
		t.Fatalf("the resumed run did %d updates, want 6 (3-8)", len(got.UpdateLoss))
	}
	for i, l := range got.UpdateLoss {
		if w := want.UpdateLoss[i+2]; math.Abs(l-w) > 1e-6*w {
			t.Errorf("update %d: loss %.7f resumed, %.7f uninterrupted", i+3, l, w)
		}
	}
}
