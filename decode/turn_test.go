package decode

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/strata-nmt/strata/model"
)

// Searcher.Turn is called before the encoder pass and before every
// decoding step, and searches that take turns on one CPU through it,
// step by step, give the results they give alone.
func TestTurnEveryStepKeepsResults(t *testing.T) {
	m := tinyModel(t, model.NormPre, 5)
	eosBias(m, 2.5)
	for _, beam := range []int{1, 4} {
		o := testOptions(beam)
		o.Greedy = beam == 1
		srcs := [][][]int32{randomSources(7, 11), randomSources(5, 12), randomSources(9, 13)}
		want := make([][][]Hypothesis, len(srcs))
		for i, x := range srcs {
			want[i] = search(t, m, o, x, startPrefix)
		}
		var cpu sync.Mutex // one CPU slot, handed over at every turn
		got := make([][][]Hypothesis, len(srcs))
		calls := make([]int, len(srcs))
		var wg sync.WaitGroup
		for i, x := range srcs {
			s, err := NewSearcher(m, o)
			if err != nil {
				t.Fatal(err)
			}
			s.Turn = func() {
				calls[i]++
				cpu.Unlock()
				runtime.Gosched()
				cpu.Lock()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				cpu.Lock()
				defer cpu.Unlock()
				got[i] = s.Search(x, startPrefix)
			}()
		}
		wg.Wait()
		for i := range srcs {
			longest := 0
			for k := range want[i] {
				sameHyps(t, fmt.Sprintf("beam %d, batch %d, sentence %d", beam, i, k), got[i][k], want[i][k])
				for _, h := range want[i][k] {
					longest = max(longest, len(h.Tokens))
				}
			}
			// the encoder pass, then at least one step per output token
			if calls[i] < 1+longest {
				t.Errorf("beam %d, batch %d: Turn called %d times for outputs of up to %d tokens, want one per step and one for the encoder", beam, i, calls[i], longest)
			}
		}
	}
}
