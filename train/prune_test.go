package train

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/rundir"
)

func TestPrunableKeepsTheScheduledCheckpoints(t *testing.T) {
	for _, c := range []struct {
		ups                     []int
		keep, interval, current int
		want                    []int
	}{
		{[]int{3000, 3500, 3850, 4000}, 3, 500, 4000, []int{3850}}, // a stop between scheduled saves
		{[]int{2500, 3000, 3500, 3850}, 3, 500, 3850, nil},         // the stop's own checkpoint stays
		{[]int{1000, 1260, 1500, 2000}, 2, 500, 2000, []int{1000, 1260}},
		{[]int{1, 2, 3, 4, 5}, 3, 0, 5, []int{1, 2}}, // no interval: the newest K
		{[]int{500, 1000}, 5, 500, 1000, nil},
		// a fresh run in a directory with higher numbers from an earlier
		// one: the checkpoint just written is never removed
		{[]int{41, 150}, 5, 100, 41, []int{150}},
		{[]int{100, 200}, 1, 100, 100, nil},
	} {
		if got := prunable(c.ups, c.keep, c.interval, c.current); !slices.Equal(got, c.want) {
			t.Errorf("prunable(%v, keep %d, every %d, current %d) = %v, want %v", c.ups, c.keep, c.interval, c.current, got, c.want)
		}
	}
}

// A run stopped twice between scheduled saves keeps the last K scheduled
// checkpoints: the stops' checkpoints do not push them out.
func TestStopsDoNotPushOutScheduledCheckpoints(t *testing.T) {
	task := copyTask(10)
	o := tinyOpts(t, 10)
	o.MaxUpdate, o.SaveInterval, o.ValidInterval, o.KeepLast = 8, 4, 4, 2
	for _, stopAfter := range []int{3, 3, 0} { // stops at updates 3 and 6, then runs to 8
		o.StopAfter = stopAfter
		if _, err := Run(context.Background(), o, task, task.Valid(1)); err != nil {
			t.Fatal(err)
		}
		o.Resume = true
	}
	got, err := rundir.Numbered(o.SaveDir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{4, 8}) {
		t.Fatalf("numbered checkpoints %v, want [4 8] (the scheduled ones)", got)
	}
}
