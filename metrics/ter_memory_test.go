package metrics

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// terLine is n words from a small vocabulary, so that a hypothesis and a
// reference share many words and the shift search has every candidate it
// may take.
func terLine(n int, seed uint32) string {
	words := make([]string, n)
	for i := range words {
		seed = seed*1664525 + 1013904223
		words[i] = string(rune('a' + seed>>24%20))
	}
	return strings.Join(words, " ")
}

// terAllocated is the bytes allocated while scoring one line pair.
func terAllocated(t *testing.T, hyp, ref string) (uint64, float64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := SentenceTER(hyp, []string{ref}, TEROptions{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return after.TotalAlloc - before.TotalAlloc, s.Score
}

// A 5,000-word line needed 2 GB with a full edit-distance matrix; with
// banded rows, two rolling rows and a bounded cache, everything it
// allocates, all shift candidates together, stays within 64 MiB.
func TestTERMemoryIsBounded(t *testing.T) {
	for _, n := range []int{5000} {
		start := time.Now()
		got, score := terAllocated(t, terLine(n, 1), terLine(n, 2))
		t.Logf("%d words: TER %.2f, %d MiB allocated in %s", n, score, got>>20, time.Since(start).Round(time.Millisecond))
		if got > 64<<20 {
			t.Errorf("%d words: allocated %d MiB, want at most 64", n, got>>20)
		}
	}
	// a short hypothesis against a long reference widens the band
	got, _ := terAllocated(t, terLine(20, 3), terLine(5000, 4))
	if got > 64<<20 {
		t.Errorf("20 words against 5,000: allocated %d MiB", got>>20)
	}
}

func TestTERRefusesLinesBeyondTheLimit(t *testing.T) {
	long := strings.Repeat("a ", TERMaxWords+1)
	if _, err := CorpusTER([]string{"a", long}, [][]string{{"a", "a"}}, TEROptions{}); err == nil ||
		!strings.Contains(err.Error(), "TER, line 2: the hypothesis has 50001 words; TER scores lines of at most 50000") {
		t.Errorf("long hypothesis: %v", err)
	}
	if _, err := CorpusTER([]string{"a"}, [][]string{{long}}, TEROptions{}); err == nil ||
		!strings.Contains(err.Error(), "reference 1 has 50001 words") {
		t.Errorf("long reference: %v", err)
	}
}
