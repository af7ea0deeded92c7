package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-nmt/strata/rundir"
	"github.com/strata-nmt/strata/train"
)

// errFinished stops a rerun of a finished run before anything is written.
var errFinished = errors.New("the run is finished")

// unrecordedSettings are train's flags that run.json does not record:
// where the run and its data are, what to do with an existing run, and
// how many threads, shards and pieces compute it (long runs resume on other
// machines).
var unrecordedSettings = map[string]bool{"data": true, "save-dir": true, "resume": true, "restart": true,
	"allow-changed-batches": true, "threads": true, "batch-shards": true, "micro-batches": true}

// trainSettings are the training settings of this invocation, by flag
// name, for run.json.
func trainSettings(cmd *cobra.Command) map[string]string {
	out := map[string]string{}
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		if !unrecordedSettings[fl.Name] && !fl.Hidden {
			out[fl.Name] = fl.Value.String()
		}
	})
	return out
}

// resumeSettings decides how a run already in --save-dir is continued: a
// finished run is left as it is (errFinished), a changed batch plan is
// refused unless --allow-changed-batches, and every other changed setting
// is named, accepted and recorded in the resume record.
func resumeSettings(cmd *cobra.Command, o *train.Options, f trainFlags, old *rundir.Existing, now rundir.Info, lead bool) error {
	var recorded map[string]string
	if old.Info != nil {
		recorded = old.Info.Settings
	}
	st, err := rundir.ReadStatusFiles("", o.SaveDir) // this process holds the lock
	if err != nil {
		return err
	}
	if st.State == rundir.StateFinished && st.StillFinished(o.MaxUpdate, o.MaxEpoch, o.Patience, recorded, now.Settings) {
		if lead {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s is finished (%s, update %d): nothing to do, nothing written; raise --max-update, --max-epoch or --patience to train on, or --restart to start afresh\n",
				o.SaveDir, st.Message, st.Updates)
		}
		return errFinished
	}
	plan, other := rundir.Changes(recorded, now.Settings)
	if len(plan) > 0 && !f.allowChangedBatches {
		return fmt.Errorf("%s: resuming with %s changes the batch plan, so the run would not continue as it began; nothing was changed: rerun with the recorded values, add --allow-changed-batches to continue anyway, or --restart to start afresh",
			o.SaveDir, rundir.JoinChanges(plan))
	}
	changes := append(plan, other...)
	for _, c := range changes {
		o.ResumeChanges = append(o.ResumeChanges, c.String())
	}
	if len(changes) > 0 && lead {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: continuing with changed settings: %s (recorded in metrics.jsonl's resume record)\n", o.SaveDir, rundir.JoinChanges(changes))
	}
	return nil
}
