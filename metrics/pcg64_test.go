package metrics

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// Indices numpy 1.24 gives for np.random.default_rng(12345).choice(7,
// size=(2, 7), replace=True) and default_rng(2**40 + 3).choice(1000, 5).
const (
	numpyChoice12345 = "4 1 5 2 1 5 4 4 6 2 5 2 3 4"
	numpyChoiceBig   = "733 773 444 995 380"
)

func drawRow(seed uint64, n, k int) string {
	r := newNumpyRNG(seed)
	out := make([]string, k)
	for i := range out {
		out[i] = fmt.Sprint(r.intn(uint32(n)))
	}
	return strings.Join(out, " ")
}

func TestNumpyRNG(t *testing.T) {
	if got := drawRow(12345, 7, 14); got != numpyChoice12345 {
		t.Errorf("seed 12345: %s, want %s", got, numpyChoice12345)
	}
	if got := drawRow(1<<40+3, 1000, 5); got != numpyChoiceBig {
		t.Errorf("seed 2^40+3: %s, want %s", got, numpyChoiceBig)
	}
}

// TestNumpyRNGLive compares with the local numpy when there is one.
func TestNumpyRNGLive(t *testing.T) {
	script := `import numpy as np
for seed, n, k in [(12345, 3003, 20), (0, 2, 40), (987654321, 100000, 10), (12345, 1, 3)]:
    print(' '.join(str(x) for x in np.random.default_rng(seed).choice(n, size=k, replace=True)))`
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		out, err := exec.Command(py, "-c", script).Output()
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		args := [][3]int{{12345, 3003, 20}, {0, 2, 40}, {987654321, 100000, 10}, {12345, 1, 3}}
		for i, a := range args {
			if got := drawRow(uint64(a[0]), a[1], a[2]); got != lines[i] {
				t.Errorf("seed %d n %d: %s, numpy %s", a[0], a[1], got, lines[i])
			}
		}
		return
	}
	t.Skip("no python3 with numpy")
}
