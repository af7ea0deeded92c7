package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Attention forward against a direct float64 implementation.
// The second shape runs the assembly tiles (34 keys: a 32-column tile and
// a Go tail; dh 40: a 32- and an 8-column tile) with odd query counts.
func TestAttentionForwardMatchesNaive(t *testing.T) {
	testAttentionForward(t, 2, 3, 5, 8, 2)
	testAttentionForward(t, 2, 33, 34, 80, 2)
}

func testAttentionForward(t *testing.T, b, tq, tk, d, h int) {
	r := NewRNG(11)
	q, k, v := param(r, "q", b*tq, d), param(r, "k", b*tk, d), param(r, "v", b*tk, d)
	pad := make([]bool, b*tk)
	pad[tk-1], pad[2*tk-1], pad[2*tk-2] = true, true, true
	g := NewInference()
	ctx, probs := g.Attention(Cols{q, 0}, Cols{k, 0}, Cols{v, 0}, b, tq, tk, AttnOptions{Heads: h, KeyPad: pad, Causal: true})
	dh := d / h
	for bi := 0; bi < b; bi++ {
		for hd := 0; hd < h; hd++ {
			for i := 0; i < tq; i++ {
				w := make([]float64, tk)
				var z float64
				for j := 0; j < tk; j++ {
					if pad[bi*tk+j] || j > i+tk-tq {
						continue
					}
					var s float64
					for c := 0; c < dh; c++ {
						s += float64(q.Data[(bi*tq+i)*d+hd*dh+c]) * float64(k.Data[(bi*tk+j)*d+hd*dh+c])
					}
					w[j] = math.Exp(s / math.Sqrt(float64(dh)))
					z += w[j]
				}
				for j := range w {
					w[j] /= z
					got := probs.Data[((bi*h+hd)*tq+i)*tk+j]
					if !near(float64(got), w[j], 1e-5) {
						t.Fatalf("prob b%d h%d i%d j%d: %v want %v", bi, hd, i, j, got, w[j])
					}
				}
				for c := 0; c < dh; c++ {
					var s float64
					for j := range w {
						s += w[j] * float64(v.Data[(bi*tk+j)*d+hd*dh+c])
					}
					if got := ctx.Data[(bi*tq+i)*d+hd*dh+c]; !near(float64(got), s, 1e-5) {
						t.Fatalf("ctx: %v want %v", got, s)
					}
				}
			}
		}
	}
}

// The loss must equal fairseq's formula computed directly.
func TestLabelSmoothedCEForward(t *testing.T) {
	r := NewRNG(12)
	z := param(r, "z", 3, 6)
	targets := []int32{2, 0, 5}
	const eps = 0.1
	g := NewInference()
	res := g.LabelSmoothedCE(z, targets, eps, 0)
	var want, nll float64
	for row, tg := range targets {
		if tg == 0 {
			continue
		}
		zs := z.Data[row*6 : row*6+6]
		var se float64
		for _, x := range zs {
			se += math.Exp(float64(x))
		}
		lp := func(j int) float64 { return float64(zs[j]) - math.Log(se) }
		epsI := eps / 5.0
		var smooth float64
		for j := range zs {
			smooth -= lp(j)
		}
		want += (1-eps-epsI)*(-lp(int(tg))) + epsI*smooth
		nll -= lp(int(tg))
	}
	if !near(float64(res.Loss.Item()), want, 1e-5) || !near(res.NLL, nll, 1e-5) || res.Tokens != 2 {
		t.Fatalf("loss %v nll %v tokens %d, want %v %v 2", res.Loss.Item(), res.NLL, res.Tokens, want, nll)
	}
}

// fairseq layout: sin half then cos half, padding row zero, positions from
// padding_idx+1.
func TestSinusoidLayout(t *testing.T) {
	const d, pad = 8, 1
	tab := SinusoidTable(d, 6, pad)
	for j := 0; j < d; j++ {
		if tab[pad*d+j] != 0 {
			t.Fatal("padding row must be zero")
		}
	}
	pos := 4
	for i := 0; i < d/2; i++ {
		freq := math.Exp(float64(i) * -math.Log(10000) / float64(d/2-1))
		if !near(float64(tab[pos*d+i]), math.Sin(float64(pos)*freq), 1e-6) ||
			!near(float64(tab[pos*d+d/2+i]), math.Cos(float64(pos)*freq), 1e-6) {
			t.Fatalf("position %d column %d", pos, i)
		}
	}
	// first real token of a right-padded sentence is at position pad+1
	x := FromData(make([]float32, 2*d), 2, d)
	g := NewInference()
	y := g.AddPositions(x, []int32{5, int32(pad)}, 2, pad, 0)
	if y.Data[0] != tab[(pad+1)*d] || y.Data[d] != 0 {
		t.Fatal("positions must start at padding_idx+1 and skip pad tokens")
	}
}

func TestLayerNormForward(t *testing.T) {
	r := NewRNG(13)
	x := param(r, "x", 4, 16)
	y := NewInference().LayerNorm(x, nil, nil)
	for row := 0; row < 4; row++ {
		var m, v float64
		for _, a := range y.Data[row*16 : row*16+16] {
			m += float64(a)
		}
		m /= 16
		for _, a := range y.Data[row*16 : row*16+16] {
			v += (float64(a) - m) * (float64(a) - m)
		}
		if !near(m, 0, 1e-6) || !near(v/16, 1, 1e-3) {
			t.Fatalf("row %d mean %v var %v", row, m, v/16)
		}
	}
}

func TestDropoutRateAndDeterminism(t *testing.T) {
	x := NewTensor(100000)
	Fill(x, 1)
	run := func(threads int) []float32 {
		g := NewGraph(3)
		g.SetThreads(threads)
		return append([]float32(nil), g.Dropout(x, 0.3).Data...)
	}
	a, b := run(1), run(2)
	zeros := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("dropout mask depends on thread count")
		}
		if a[i] == 0 {
			zeros++
		} else if !near(float64(a[i]), 1/0.7, 1e-6) {
			t.Fatalf("kept value %v, want 1/(1-p)", a[i])
		}
	}
	if rate := float64(zeros) / float64(len(a)); !near(rate, 0.3, 0.01) {
		t.Fatalf("drop rate %v, want 0.3", rate)
	}
	if NewInference().Dropout(x, 0.3) != x {
		t.Fatal("inference dropout must be the identity")
	}
}

func TestTensorFileRoundTripAndErrors(t *testing.T) {
	r := NewRNG(14)
	a, b := param(r, "enc.w", 3, 4), param(r, "enc.b", 4)
	var buf bytes.Buffer
	type meta struct{ Arch string }
	if err := WriteTensors(&buf, meta{"tiny"}, []*Tensor{a, b}); err != nil {
		t.Fatal(err)
	}
	var m meta
	got, err := ReadTensors(bytes.NewReader(buf.Bytes()), &m)
	if err != nil || m.Arch != "tiny" || len(got) != 2 || got[0].Name != "enc.w" || got[1].Data[3] != b.Data[3] {
		t.Fatalf("round trip: %v %+v", err, m)
	}
	full := buf.Bytes()
	if _, err := ReadTensors(bytes.NewReader(full[:len(full)-10]), nil); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncated file: %v", err)
	}
	bad := append([]byte(nil), full...)
	bad[len(bad)-20] ^= 1
	if _, err := ReadTensors(bytes.NewReader(bad), nil); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("corrupt file: %v", err)
	}
	if _, err := ReadTensors(strings.NewReader("PK\x03\x04 a zip file"), nil); err != ErrNotTensorFile {
		t.Fatalf("foreign file: %v", err)
	}
}

// A kernel's result must not depend on the number of threads beyond float
// summation order, and must be bit-identical for a fixed thread count.
func TestLayerNormGradDeterministic(t *testing.T) {
	r := NewRNG(15)
	x, gain := param(r, "x", 300, 64), param(r, "gain", 64)
	run := func() []float32 {
		gain.ZeroGrad()
		g := NewGraph(1)
		g.SetThreads(2)
		g.Backward(g.Sum(g.Mul(g.LayerNorm(x, gain, nil), x)))
		return append([]float32(nil), gain.Grad...)
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("gradient not bit-identical across runs")
		}
	}
}

// LogMeanExp against log(mean(exp)) in float64, with blocked (-Inf)
// entries in one member and in all members.
func TestLogMeanExpForward(t *testing.T) {
	inf := float32(math.Inf(-1))
	a := []float32{-1, -2.5, inf, inf, -30, 0}
	b := []float32{-3, -0.1, -4, inf, -80, 0}
	g := NewInference()
	y := g.LogMeanExp(g.Const(a, 2, 3), g.Const(b, 2, 3))
	for i := range a {
		want := math.Log((math.Exp(float64(a[i])) + math.Exp(float64(b[i]))) / 2)
		got := float64(y.Data[i])
		if math.IsInf(want, -1) != math.IsInf(got, -1) || (!math.IsInf(want, -1) && math.Abs(got-want) > 1e-6*max(1, math.Abs(want))) {
			t.Errorf("element %d: LogMeanExp(%v, %v) = %v, want %v", i, a[i], b[i], got, want)
		}
	}
	// three members take the general path
	c := []float32{-2, inf, -1, inf, -1, 0}
	y3 := g.LogMeanExp(g.Const(a, 2, 3), g.Const(b, 2, 3), g.Const(c, 2, 3))
	for i := range a {
		want := math.Log((math.Exp(float64(a[i])) + math.Exp(float64(b[i])) + math.Exp(float64(c[i]))) / 3)
		got := float64(y3.Data[i])
		if math.IsInf(want, -1) != math.IsInf(got, -1) || (!math.IsInf(want, -1) && math.Abs(got-want) > 1e-6*max(1, math.Abs(want))) {
			t.Errorf("element %d of three: %v, want %v", i, got, want)
		}
	}
	one := g.LogMeanExp(g.Const(a, 2, 3))
	for i, x := range a {
		if one.Data[i] != x && !(math.IsInf(float64(x), -1) && math.IsInf(float64(one.Data[i]), -1)) {
			t.Errorf("one member: element %d is %v, want %v", i, one.Data[i], x)
		}
	}
}
