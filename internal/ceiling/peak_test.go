package ceiling

import (
	"strings"
	"testing"
	"time"
)

// The loops report the operations they ran: 12 instructions a round of a
// width the kernel's name says, or nothing without a loop.
func TestPeakLoopsCountTheirOperations(t *testing.T) {
	for _, c := range []struct {
		name   string
		loop   func(int) float64
		kernel string
		widths map[string]float64 // kernel name prefix: operations per instruction
	}{
		{"FMAPeak", FMAPeak, FMAKernel(), map[string]float64{"avx512 ": 32, "avx2 ": 16}},
		{"Int8Peak", Int8Peak, Int8Kernel(), map[string]float64{"avx512-vnni ": 128, "avx512bw ": 128, "avx2 ": 64}},
	} {
		got := c.loop(10)
		if c.loop(0) != 0 {
			t.Errorf("%s(0) ran something", c.name)
		}
		if c.kernel == "none" {
			if got != 0 {
				t.Errorf("%s(10) = %v with no kernel", c.name, got)
			}
			continue
		}
		want := -1.0
		for prefix, w := range c.widths {
			if strings.HasPrefix(c.kernel, prefix) {
				want = 10 * 12 * w
			}
		}
		if got != want {
			t.Errorf("%s(10) on %q = %v, want %v", c.name, c.kernel, got, want)
		}
	}
}

// A measured rate is positive where a loop exists, sums the threads, and
// the vector loops run at least as fast as scalar code could (one
// operation per nanosecond on one core would be far below any of them).
func TestMeasure(t *testing.T) {
	r := Measure(2, 20*time.Millisecond, FMAPeak)
	if FMAKernel() == "none" {
		if r.Cores != 0 || r.Core != 0 {
			t.Fatalf("Measure without a loop = %+v, want zero rates", r)
		}
		return
	}
	t.Logf("%s: %.1f GFLOP/s on 2 threads, %.1f on the best core", FMAKernel(), r.Cores/1e9, r.Core/1e9)
	if r.Threads != 2 || r.Core <= 1e9 || r.Cores < r.Core || r.Cores > 2*r.Core {
		t.Fatalf("Measure(2 threads) = %+v: want one core's best above 1e9 op/s and the sum of two threads", r)
	}
}

func TestShareRefusesAboveTheCeiling(t *testing.T) {
	if s, err := Share(50, 100); err != nil || s != 0.5 {
		t.Fatalf("Share(50, 100) = %v, %v", s, err)
	}
	if s, err := Share(100, 100); err != nil || s != 1 {
		t.Fatalf("Share(100, 100) = %v, %v", s, err)
	}
	if _, err := Share(101, 100); err == nil || !strings.Contains(err.Error(), "operation count or the ceiling is wrong") {
		t.Fatalf("Share(101, 100) error %v", err)
	}
	if _, err := Share(1, 0); err == nil {
		t.Fatal("Share with no ceiling gave no error")
	}
}
