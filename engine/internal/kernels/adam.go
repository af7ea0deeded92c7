package kernels

import "math"

// AdamConsts are one Adam update's constants in the order the assembly
// loads them: b1, 1-b1, b2, 1-b2, step size, decay (1 without weight
// decay: x·1 is x), eps, l2.
type AdamConsts [8]float32

// Adam applies one Adam step to w from grad (plus l2·w), updating the
// moments m and v in place: the AVX2 loop over whole groups of 8 where it
// runs, AdamGo over the rest. Both do the same float32 operations in the
// same order, so they give the same bits.
func Adam(w, grad, m, v []float32, k *AdamConsts) {
	n := len(grad)
	w, m, v = w[:n], m[:n], v[:n]
	done := 0
	if avx2 && n >= 8 {
		done = n &^ 7
		AdamAVX2(&w[0], &grad[0], &m[0], &v[0], done, k)
	}
	AdamGo(w[done:], grad[done:], m[done:], v[done:], k)
}

// AdamGo is the update's definition, element by element (fairseq's
// semantics: bias correction folded into the step size, eps added to √v).
func AdamGo(w, grad, m, v []float32, k *AdamConsts) {
	b1, c1, b2, c2, step, decay, eps, l2 := k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]
	for j, g := range grad {
		x := w[j]
		g += float32(l2 * x)
		m[j] = float32(b1*m[j]) + float32(c1*g)
		v[j] = float32(b2*v[j]) + float32(c2*g*g)
		x *= decay
		w[j] = x - step*m[j]/(float32(math.Sqrt(float64(v[j])))+eps)
	}
}
