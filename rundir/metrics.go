package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/internal/textio"
)

// Record is one line of a run's metrics.jsonl.
type Record struct {
	Type   string  `json:"type"` // train, valid or stop (RecordStop)
	Update int     `json:"update"`
	Epoch  int     `json:"epoch"`
	Loss   float64 `json:"loss"` // train: label-smoothed bits/token; valid: nll bits/token
	NLL    float64 `json:"nll"`
	PPL    float64 `json:"ppl"`
	LR     float64 `json:"lr"`
	GNorm  float64 `json:"gnorm"`
	Tokens int     `json:"tokens"`
	Wall   float64 `json:"wall"`
	// PeakRSSGB is the process's peak resident memory so far, in GB
	// (train records; absent where unknown and in runs before it was logged).
	PeakRSSGB      float64            `json:"peak_rss_gb"`
	BLEU           float64            `json:"bleu"`
	LayerGradNorms map[string]float64 `json:"layer_grad_norms"`
	// SharedGradNorms is the norm over each layer's self-attention and FFN
	// parameters (see LayerGradNorms); absent in runs before it was logged.
	SharedGradNorms map[string]float64 `json:"layer_grad_norms_shared"`
	// BestBLEU is on the valid records of a run whose best checkpoint
	// follows validation BLEU (--best-checkpoint-metric bleu).
	BestBLEU *float64 `json:"best_bleu"`
	// Reason (one of the Stop* codes) and Message are a stop record's.
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// RecordStop is the type of the record training appends when it stops,
// after its last checkpoint: Reason says why, Message says it in words.
// A run whose last record is a stop record with a finishing reason
// (Finished) is complete; a later resumption appends records after it.
const RecordStop = "stop"

// The reasons of a stop record.
const (
	StopPatience    = "patience"    // validation did not improve for --patience validations
	StopMaxUpdate   = "max_update"  // the --max-update cap
	StopMaxEpoch    = "max_epoch"   // the --max-epoch cap
	StopTimeLimit   = "time_limit"  // --stop-time: resumable
	StopInterrupted = "interrupted" // a signal or --stop-after: resumable
)

// Finished says whether a run that stopped for reason is complete
// (resuming it trains no further).
func Finished(reason string) bool {
	return reason == StopPatience || reason == StopMaxUpdate || reason == StopMaxEpoch
}

// RecordResume is the type of the record a resumed run appends before its
// first update: the records before it past its update were written after
// the checkpoint the run resumed from, and are superseded.
const RecordResume = "resume"

// ReadMetrics reads RUN/metrics.jsonl (or a path to the file itself; either
// gzipped in place, as archived runs keep it, as metrics.jsonl.gz). A
// last line without its newline that does not parse is a record that a
// running training is still writing: it is left out, so that runs can be
// read (plotted, analysed) while they train.
func ReadMetrics(path string) ([]Record, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, MetricsFile)
	}
	f, err := textio.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	var torn error // a line that does not parse: a crash's, if a resume follows
	rd := bufio.NewReaderSize(f, 1<<20)
	for line := 1; ; line++ {
		b, err := rd.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		complete := err == nil
		if len(bytes.TrimSpace(b)) > 0 {
			var r Record
			if jerr := json.Unmarshal(b, &r); jerr != nil {
				if !complete {
					break // being written
				}
				if torn != nil {
					return nil, torn
				}
				torn = fmt.Errorf("%s:%d: not a metrics record: %v", path, line, jerr)
			} else if r.Type == RecordResume {
				out, torn = supersede(out, r.Update), nil
			} else if torn != nil {
				return nil, torn
			} else {
				out = append(out, r)
			}
		}
		if !complete {
			break
		}
	}
	if torn != nil {
		return nil, torn
	}
	return out, nil
}

// supersede drops the records past update, which a resumed run rewrites,
// and the stop records before it: the run goes on after them.
func supersede(recs []Record, update int) []Record {
	keep := recs[:0]
	for _, r := range recs {
		if r.Update <= update && r.Type != RecordStop {
			keep = append(keep, r)
		}
	}
	return keep
}
