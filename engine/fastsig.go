package engine

import "github.com/strata-nmt/strata/engine/internal/kernels"

// sigmoid and tanh through expNegPoly instead of float64 math.Exp and
// math.Tanh: MSC's GRU context and gated fusion evaluate tens of millions
// of them per 36-layer training step, and with the float64 library calls
// they took about 6% of its CPU time; these are 1.4-1.7x faster
// (BenchmarkSigmoidTanh, random signs). Both stay within TolFunc of the
// float64 reference (TestSigmoidTanh32).

// sigmoid32 is 1/(1+e^-v) (kernels.SigmoidGo: through e^-|v|, so that the
// exponential never overflows). Rows of them run through kernels.Sigmoid,
// eight at a time with AVX2, to this function's bit.
func sigmoid32(v float32) float32 { return kernels.SigmoidGo(v) }

// tanh32 is tanh(v) (kernels.TanhGo: an odd polynomial for |v| < 0.625,
// (1-e)/(1+e) with e = e^-2|v| above). Rows of them run through
// kernels.Tanh, eight at a time with AVX2, to this function's bit.
func tanh32(v float32) float32 { return kernels.TanhGo(v) }
