package data

import (
	"os"
	"testing"
)

// BenchmarkEpochPadding plans train epochs and reports their padding (the
// share of batch positions that are padding). With STRATA_DATA set to a
// prepared directory (e.g. from configs/l10n-multi.yaml) it uses that;
// otherwise the toy corpus of the tests. STRATA_MAX_TOKENS sets the batch
// size (default 4096).
//
//	STRATA_DATA=/tmp/dd-multi go test ./data -run XXX -bench EpochPadding
func BenchmarkEpochPadding(b *testing.B) {
	var ds *Dataset
	if dir := os.Getenv("STRATA_DATA"); dir != "" {
		var err error
		if ds, err = Open(dir); err != nil {
			b.Fatal(err)
		}
	} else {
		ds = openSmall(b)
	}
	maxTokens := 4096
	if v := os.Getenv("STRATA_MAX_TOKENS"); v != "" {
		if _, err := fmtSscan(v, &maxTokens); err != nil {
			b.Fatal(err)
		}
	}
	for _, temp := range []float64{1, 5} {
		bt, err := NewBatcher(ds.Splits["train"], ds.Sequencer(), BatcherOptions{MaxTokens: maxTokens, Seed: 1, Temperature: temp})
		if err != nil {
			b.Fatal(err)
		}
		name := "T=1"
		if temp != 1 {
			name = "T=5"
		}
		b.Run(name, func(b *testing.B) {
			var st EpochStats
			for i := 0; b.Loop(); i++ {
				bt.planOf = 0 // plan afresh every time
				st = bt.EpochStats(1 + i)
			}
			b.ReportMetric(100*st.SrcPadding, "src-pad-%")
			b.ReportMetric(100*st.TgtPadding, "tgt-pad-%")
			b.ReportMetric(float64(st.Batches), "batches")
			b.ReportMetric(float64(st.Sentences)/float64(st.Batches), "sent/batch")
		})
	}
}
