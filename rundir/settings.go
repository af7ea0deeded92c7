package rundir

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// BatchPlanSettings are the training settings that decide which sentences
// make up each update, in which order: changing one on resumption means
// the run no longer continues as it would have. Thread and shard counts
// are not among them: long runs resume on other machines, and a batch is
// the same however it is split.
var BatchPlanSettings = []string{"seed", "max-tokens", "update-freq", "batch-size", "lang-temperature", "train-split"}

// SettingChange is a training setting whose value differs from the one the
// run last trained with.
type SettingChange struct {
	Name, Old, New string
}

func (c SettingChange) String() string { return fmt.Sprintf("--%s %s → %s", c.Name, c.Old, c.New) }

// Changes compares the settings a run last trained with (old, from its
// run.json) with those of a new invocation, in name order: plan lists the
// changes to BatchPlanSettings, other the rest. A setting that either side
// lacks is unknown, not changed (runs written before settings were
// recorded have none).
func Changes(old, now map[string]string) (plan, other []SettingChange) {
	names := make([]string, 0, len(now))
	for n := range now {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		o, ok := old[n]
		if !ok || o == now[n] {
			continue
		}
		c := SettingChange{Name: n, Old: o, New: now[n]}
		if slices.Contains(BatchPlanSettings, n) {
			plan = append(plan, c)
		} else {
			other = append(other, c)
		}
	}
	return plan, other
}

// JoinChanges lists changes for a message: "--lr 1e-3 → 5e-4; --seed 1 → 2".
func JoinChanges(cs []SettingChange) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// StillFinished says whether a finished run stays finished under a new
// invocation's limits: the limit that ended it (max-update, max-epoch or
// patience, as st.Reason says) is still set and not raised. old and now
// are the recorded and the new settings (old may be nil).
func (st *Status) StillFinished(maxUpdate, maxEpoch, patience int, old, now map[string]string) bool {
	same := func(name string) bool {
		o, ok := old[name]
		return !ok || o == now[name]
	}
	switch st.Reason {
	case StopMaxUpdate:
		return maxUpdate > 0 && st.Updates >= maxUpdate
	case StopMaxEpoch:
		if o, ok := old["max-epoch"]; ok {
			return maxEpoch > 0 && o == now["max-epoch"]
		}
		return maxEpoch > 0 && st.Epoch >= maxEpoch
	case StopPatience:
		return patience > 0 && same("patience")
	}
	return false
}
