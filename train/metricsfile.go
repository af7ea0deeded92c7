package train

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Record is one line of a run's metrics.jsonl.
type Record struct {
	Type           string             `json:"type"` // train or valid
	Update         int                `json:"update"`
	Epoch          int                `json:"epoch"`
	Loss           float64            `json:"loss"` // train: label-smoothed bits/token; valid: nll bits/token
	NLL            float64            `json:"nll"`
	PPL            float64            `json:"ppl"`
	LR             float64            `json:"lr"`
	GNorm          float64            `json:"gnorm"`
	Tokens         int                `json:"tokens"`
	Wall           float64            `json:"wall"`
	BLEU           float64            `json:"bleu"`
	LayerGradNorms map[string]float64 `json:"layer_grad_norms"`
}

// ReadMetrics reads RUN/metrics.jsonl (or a path to the file itself).
func ReadMetrics(path string) ([]Record, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "metrics.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: not a metrics record: %v", path, line, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}
