package progress

import (
	"strings"
	"testing"
)

// In logs (no terminal) a finished step prints its count and rate once.
func TestSummaryLine(t *testing.T) {
	var b strings.Builder
	p := New(&b, "encode", 10, Options{})
	p.Summary = true
	p.Add(4)
	p.Add(6)
	p.Finish()
	if !strings.HasPrefix(b.String(), "encode: 10 in ") || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("log: %q", b.String())
	}
}
