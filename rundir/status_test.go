package rundir

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func writeRun(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		b := []byte(text)
		if filepath.Ext(name) == ".gz" {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(b)
			zw.Close()
			b = buf.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const twoInvocations = `{"type":"train","update":1,"epoch":1,"tokens":100,"wall":1}
{"type":"train","update":2,"epoch":1,"tokens":300,"wall":2,"peak_rss_gb":1.5}
{"type":"valid","update":2,"epoch":1,"loss":5.5}
{"type":"train","update":3,"epoch":1,"tokens":200,"wall":3}
{"type":"stop","update":3,"epoch":1,"reason":"time_limit","message":"reached the time limit of 3s"}
{"type":"resume","update":2}
{"type":"train","update":3,"epoch":1,"tokens":200,"wall":1}
{"type":"valid","update":3,"epoch":2,"loss":4.25}
{"type":"train","update":5,"epoch":2,"tokens":200,"wall":3,"peak_rss_gb":2.5}
{"type":"valid","update":5,"epoch":2,"loss":4.5}
`

// A run's status follows its records as ReadMetrics reads them: the
// resumption supersedes the stop record and the records it rewrote; the
// stop record at the end says whether the run is finished and why.
func TestStatusFromMetrics(t *testing.T) {
	dir := writeRun(t, map[string]string{MetricsFile: twoInvocations})
	st, err := ReadStatus("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != StateUnfinished || st.Reason != "" || st.Updates != 5 || st.Epoch != 2 {
		t.Errorf("resumed run: %+v, want unfinished at update 5, epoch 2", st)
	}
	if b := st.Best; b == nil || b.Metric != "nll" || b.Value != 4.25 || b.Update != 3 {
		t.Errorf("best %+v, want nll 4.25 at update 3", st.Best)
	}
	// 200 tokens an update on average (800 over 4 train records), 1+2
	// updates in 1+2 seconds; the pair across the resumption (wall 2 → 1)
	// is left out.
	if math.Abs(st.TokensPerSecond-200) > 1e-9 {
		t.Errorf("tokens/s %v, want 200", st.TokensPerSecond)
	}
	if st.PeakRSSGB != 2.5 {
		t.Errorf("peak memory %v GB, want the larger of the invocations', 2.5", st.PeakRSSGB)
	}

	for _, c := range []struct{ reason, state string }{
		{StopMaxUpdate, StateFinished}, {StopPatience, StateFinished}, {StopMaxEpoch, StateFinished},
		{StopTimeLimit, StateStopped}, {StopInterrupted, StateStopped},
	} {
		dir := writeRun(t, map[string]string{MetricsFile: twoInvocations +
			`{"type":"stop","update":5,"epoch":2,"reason":"` + c.reason + `","message":"why"}` + "\n"})
		st, err := ReadStatus("x", dir)
		if err != nil || st.State != c.state || st.Reason != c.reason || st.Message != "why" {
			t.Errorf("stopped for %s: %+v %v, want %s", c.reason, st, err, c.state)
		}
	}
}

// With --best-checkpoint-metric bleu the best validation is the highest
// BLEU (the newer on a tie, as checkpoint_best.bin).
func TestStatusBestBLEU(t *testing.T) {
	dir := writeRun(t, map[string]string{MetricsFile: `{"type":"valid","update":10,"loss":3,"bleu":20,"best_bleu":20}
{"type":"valid","update":20,"loss":2.5,"bleu":25,"best_bleu":25}
{"type":"valid","update":30,"loss":2.4,"bleu":25,"best_bleu":25}
{"type":"valid","update":40,"loss":2.3,"bleu":24,"best_bleu":25}
`})
	st, err := ReadStatus("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if b := st.Best; b == nil || b.Metric != "bleu" || b.Value != 25 || b.Update != 30 {
		t.Errorf("best %+v, want bleu 25 at update 30", st.Best)
	}
}

// An archived run keeps gzipped metrics and log and no checkpoint; without
// stop records, the last "done:" line of train.log that no training
// follows says why it stopped.
func TestStatusArchivedRun(t *testing.T) {
	metrics := `{"type":"train","update":100,"epoch":1,"tokens":50,"wall":10}
{"type":"valid","update":100,"epoch":1,"loss":3.5}
`
	log := `epoch 1 | update 50 | loss 9
done: reached the time limit of 1h0m0s
resumed from checkpoint_last.bin at update 50 (epoch 1, batch 3)
epoch 1 | update 100 | loss 8
done: reached max_update 100
valid | epoch 1 | update 100 | nll 3.5 bits
reached max_update 100 after 100 updates (1 epochs)
`
	dir := writeRun(t, map[string]string{MetricsFile + ".gz": metrics, LogFile + ".gz": log})
	st, err := ReadStatus("post", dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != StateFinished || st.Reason != StopMaxUpdate || st.Message != "reached max_update 100" || st.Updates != 100 || st.LastCheckpoint != nil {
		t.Errorf("archived run: %+v", st)
	}
	dir = writeRun(t, map[string]string{MetricsFile: metrics, LogFile: log + "resumed from checkpoint_last.bin at update 100\nepoch 1 | update 101\n"})
	if st, err := ReadStatus("", dir); err != nil || st.State != StateUnfinished || st.Reason != "" {
		t.Errorf("a log that trains on after its done line: %+v %v", st, err)
	}
}

func TestStatusNotStarted(t *testing.T) {
	st, err := ReadStatus("", filepath.Join(t.TempDir(), "absent"))
	if err != nil || st.State != StateNotStarted {
		t.Errorf("absent directory: %+v %v", st, err)
	}
	st, err = ReadStatus("", t.TempDir())
	if err != nil || st.State != StateNotStarted {
		t.Errorf("empty directory: %+v %v", st, err)
	}
}

// The zero-shot study's archived runs (thinned, gzipped metrics and
// train.log, no checkpoints) read as finished at the max-update cap.
func TestStatusOfArchivedStudyRun(t *testing.T) {
	dir := filepath.Join("..", "experiments", "zero-shot", "results", "pre-tenc", "run")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no archived run at %s", dir)
	}
	st, err := ReadStatus("pre-tenc", dir)
	if err != nil {
		t.Fatal(err)
	}
	// train.log ends: "best valid nll 2.895 bits; 4894 target tokens/s"
	if st.State != StateFinished || st.Reason != StopMaxUpdate || st.Updates != 30000 || st.Epoch != 67 ||
		st.Best == nil || math.Abs(st.Best.Value-2.895) > 1e-3 || st.TokensPerSecond < 3000 || st.TokensPerSecond > 7000 {
		t.Errorf("pre-tenc: %+v best %+v", st, st.Best)
	}
}

// A run with --max-update that has not finished gets the time left at its
// speed so far; a finished one, or one without a cap, none.
func TestStatusTimeLeft(t *testing.T) {
	metrics := `{"type":"train","update":1,"epoch":1,"tokens":100,"wall":10}
{"type":"train","update":3,"epoch":1,"tokens":100,"wall":30}
`
	dir := writeRun(t, map[string]string{MetricsFile: metrics, InfoFile: `{"data_dir":"d","model_config_summary":"m","settings":{"max-update":"10"}}`})
	st, err := ReadStatus("", dir)
	if err != nil {
		t.Fatal(err)
	}
	// 10 s an update (20 s for updates 1→3), 7 updates to go
	if st.MaxUpdate != 10 || math.Abs(st.SecondsLeft-70) > 1e-9 {
		t.Errorf("max update %d, seconds left %v; want 10 and 70", st.MaxUpdate, st.SecondsLeft)
	}
	dir = writeRun(t, map[string]string{MetricsFile: metrics + `{"type":"stop","update":3,"epoch":1,"reason":"max_update","message":"reached max_update 3"}` + "\n",
		InfoFile: `{"data_dir":"d","model_config_summary":"m","settings":{"max-update":"10"}}`})
	if st, err := ReadStatus("", dir); err != nil || st.SecondsLeft != 0 {
		t.Errorf("finished run: %+v %v, want no time left", st, err)
	}
	dir = writeRun(t, map[string]string{MetricsFile: metrics})
	if st, err := ReadStatus("", dir); err != nil || st.SecondsLeft != 0 || st.MaxUpdate != 0 {
		t.Errorf("run without run.json: %+v %v, want no cap", st, err)
	}
}
