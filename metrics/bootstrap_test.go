package metrics

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// synthCorpus makes a deterministic toy test set: references, and two
// systems that copy a reference word with probabilities pa and pb.
func synthCorpus(n int, pa, pb float64) (refs, a, b []string) {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the a cat dog sat on mat it was not very good bad and then")
	for i := 0; i < n; i++ {
		var rw, aw, bw []string
		for j := 0; j < 5+r.IntN(10); j++ {
			w := words[r.IntN(len(words))]
			rw = append(rw, w)
			pick := func(p float64) string {
				if r.Float64() < p {
					return w
				}
				return words[r.IntN(len(words))]
			}
			aw, bw = append(aw, pick(pa)), append(bw, pick(pb))
		}
		refs, a, b = append(refs, strings.Join(rw, " ")), append(a, strings.Join(aw, " ")), append(b, strings.Join(bw, " "))
	}
	return refs, a, b
}

func TestPairedBootstrapBasics(t *testing.T) {
	refs, a, b := synthCorpus(200, 0.5, 0.7)
	m, _ := NewBLEU(BLEUOptions{})
	res, err := PairedBootstrap(m, a, b, [][]string{refs}, BootstrapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Samples != 1000 || res.Seed != 12345 {
		t.Errorf("defaults: %d samples seed %d", res.Samples, res.Seed)
	}
	if res.System.Score <= res.Baseline.Score || res.PValue > 0.01 {
		t.Errorf("clearly better system: %+v", res)
	}
	for _, e := range []Estimate{res.Baseline, res.System} {
		if !(e.Lower <= e.Mean && e.Mean <= e.Upper && e.CI > 0) {
			t.Errorf("interval %+v", e)
		}
	}
	if want := "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:" + signatureVersion; res.Signature != want {
		t.Errorf("signature %s", res.Signature)
	}
	again, _ := PairedBootstrap(m, a, b, [][]string{refs}, BootstrapOptions{})
	if fmt.Sprint(again) != fmt.Sprint(res) {
		t.Errorf("not deterministic")
	}
	seed := uint64(7)
	other, _ := PairedBootstrap(m, a, b, [][]string{refs}, BootstrapOptions{Seed: &seed, Samples: 200})
	if other.System.Mean == res.System.Mean {
		t.Errorf("seed ignored")
	}
	// a system against itself: two-sided p = 1; sacreBLEU's p-value
	// gives it its smallest value, 1/(n+1)
	self, _ := PairedBootstrap(m, a, a, [][]string{refs}, BootstrapOptions{})
	sbSelf, _ := PairedBootstrap(m, a, a, [][]string{refs}, BootstrapOptions{PValue: SacreBLEU})
	if self.PValue != 1 || sbSelf.PValue != 1.0/1001 {
		t.Errorf("self p-value %v, sacreBLEU's %v", self.PValue, sbSelf.PValue)
	}
	if _, err := PairedBootstrap(m, a, b[:3], [][]string{refs}, BootstrapOptions{}); err == nil {
		t.Error("length mismatch accepted")
	}
}

// The difference's interval is the 2.5% and 97.5% order statistics of the
// resampled system-minus-baseline differences (recomputed here from the
// resampled scores); it lies above zero for a clearly better system, below
// zero with the two swapped, and is exactly zero for a system against
// itself.
func TestPairedBootstrapDifferenceInterval(t *testing.T) {
	refs, a, b := synthCorpus(200, 0.5, 0.7)
	m, _ := NewBLEU(BLEUOptions{})
	r := [][]string{refs}
	const n = 400
	res, err := PairedBootstrap(m, a, b, r, BootstrapOptions{Samples: n})
	if err != nil {
		t.Fatal(err)
	}
	blStats, _, _ := m.SegmentStats(a, r)
	sysStats, _, _ := m.SegmentStats(b, r)
	scores := resampleScores(m, [][][]float64{blStats, sysStats}, n, DefaultBootstrapSeed)
	d := make([]float64, n)
	for i := range d {
		d[i] = scores[1][i] - scores[0][i]
	}
	sort.Float64s(d)
	if res.Diff.Score != res.System.Score-res.Baseline.Score || res.Diff.Lower != d[n/40] || res.Diff.Upper != d[n-n/40-1] {
		t.Errorf("difference %+v; want %.4f from order statistics %.4f and %.4f", res.Diff,
			res.System.Score-res.Baseline.Score, d[n/40], d[n-n/40-1])
	}
	if !(0 < res.Diff.Lower && res.Diff.Lower <= res.Diff.Mean && res.Diff.Mean <= res.Diff.Upper) {
		t.Errorf("clearly better system: difference %+v", res.Diff)
	}
	swapped, _ := PairedBootstrap(m, b, a, r, BootstrapOptions{Samples: n})
	if swapped.Diff.Score != -res.Diff.Score || swapped.Diff.Upper != -res.Diff.Lower || swapped.Diff.Lower != -res.Diff.Upper {
		t.Errorf("swapped systems: %+v against %+v", swapped.Diff, res.Diff)
	}
	self, _ := PairedBootstrap(m, a, a, r, BootstrapOptions{Samples: n})
	if self.Diff != (Estimate{}) {
		t.Errorf("a system against itself: difference %+v", self.Diff)
	}
}

// sacrebleuPairedBS replays sacreBLEU's _paired_bs_test and estimate_ci on
// our segment statistics with numpy (float32 statistics, numpy's RNG),
// scoring with BLEU.compute_bleu's formula, and prints
// "bl_mean bl_ci sys_mean sys_ci p".
const sacrebleuPairedBS = `
import sys, math, numpy as np
data = [list(map(float, l.split())) for l in sys.stdin]
half = len(data) // 2
bl, sy = np.array(data[:half], dtype='float32'), np.array(data[half:], dtype='float32')
def my_log(x): return -9999999999 if x == 0 else math.log(x)
def bleu(st):
    sys_len, ref_len = int(st[0]), int(st[1])
    correct, total = st[2:6], st[6:10]
    bp = (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0) if sys_len < ref_len else 1.0
    prec = [0.0] * 4
    if not any(correct): return 0.0
    smooth = 1.0
    for n in range(1, 5):
        if total[n-1] == 0: break
        if correct[n-1] == 0:
            smooth *= 2
            prec[n-1] = 100. / (smooth * total[n-1])
        else:
            prec[n-1] = 100. * correct[n-1] / total[n-1]
    return bp * math.exp(sum(my_log(p) for p in prec) / 4)
rng = np.random.default_rng(12345)
idxs = rng.choice(half, size=(1000, half), replace=True)
sb = np.array([bleu(s.sum(0)) for s in bl[idxs]])
ss = np.array([bleu(s.sum(0)) for s in sy[idxs]])
def ci(x):
    x = np.sort(x); lo = len(x) // 40
    return x.mean(), 0.5 * (x[len(x) - lo - 1] - x[lo])
diff = abs(bleu(bl.sum(0)) - bleu(sy.sum(0)))
d = np.abs(ss - sb); st = d - d.mean()
p = (np.sum(st > diff).item() + 1) / (len(st) + 1)
print(*ci(sb), *ci(ss), p)
`

// replayPairedBS runs strata's paired bootstrap of metric m on a synthetic
// corpus and the numpy replay script of sacreBLEU's on the same segment
// statistics, where /usr/bin/python3 has numpy (else it skips). It returns
// strata's result and the script's baseline mean and CI, system mean and
// CI, and p-value.
func replayPairedBS(t *testing.T, m Metric, script string) (PairedResult, [5]float64) {
	t.Helper()
	var w [5]float64
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	if exec.Command(py, "-c", "import numpy").Run() != nil {
		t.Skip("no numpy")
	}
	refs, a, b := synthCorpus(150, 0.55, 0.6)
	res, err := PairedBootstrap(m, a, b, [][]string{refs}, BootstrapOptions{PValue: SacreBLEU})
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for _, hyps := range [][]string{a, b} {
		st, _, _ := m.SegmentStats(hyps, [][]string{refs})
		for _, row := range st {
			fmt.Fprintln(&in, strings.Trim(fmt.Sprint(row), "[]"))
		}
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscan(string(out), &w[0], &w[1], &w[2], &w[3], &w[4]); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	t.Logf("p = %.4f, baseline %.2f ± %.2f, system %.2f ± %.2f", res.PValue, res.Baseline.Mean, res.Baseline.CI, res.System.Mean, res.System.CI)
	return res, w
}

// TestPairedBootstrapMatchesNumpy replays sacreBLEU's algorithm with numpy
// where /usr/bin/python3 has it, and requires agreement to 4 decimals.
func TestPairedBootstrapMatchesNumpy(t *testing.T) {
	m, _ := NewBLEU(BLEUOptions{})
	res, w := replayPairedBS(t, m, sacrebleuPairedBS)
	got := fmt.Sprintf("%.4f %.4f %.4f %.4f %.4f", res.Baseline.Mean, res.Baseline.CI, res.System.Mean, res.System.CI, res.PValue)
	want := fmt.Sprintf("%.4f %.4f %.4f %.4f %.4f", w[0], w[1], w[2], w[3], w[4])
	if got != want {
		t.Errorf("strata %s\nnumpy  %s", got, want)
	}
}

// TestBootstrapIsThePairedTestsSystemInterval: sacreBLEU's --confidence and
// its paired test draw the same resamples for a seed, so one system's
// interval must equal the one the paired test reports for it (and that one
// is checked against numpy in TestPairedBootstrapMatchesNumpy).
func TestBootstrapIsThePairedTestsSystemInterval(t *testing.T) {
	refs, a, b := synthCorpus(150, 0.5, 0.7)
	m, _ := NewBLEU(BLEUOptions{})
	for _, seed := range []uint64{12345, 3} {
		opts := BootstrapOptions{Samples: 300, Seed: &seed}
		paired, err := PairedBootstrap(m, a, b, [][]string{refs}, opts)
		if err != nil {
			t.Fatal(err)
		}
		e, sig, err := Bootstrap(m, b, [][]string{refs}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if e != paired.System || sig != paired.Signature {
			t.Errorf("seed %d: %+v %s, the paired test's system has %+v %s", seed, e, sig, paired.System, paired.Signature)
		}
	}
	if _, _, err := Bootstrap(m, nil, [][]string{nil}, BootstrapOptions{}); err == nil {
		t.Error("no segments: want an error")
	}
}
