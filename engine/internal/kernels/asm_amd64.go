//go:build !purego

package kernels

// Declarations of the assembly kernels; asm_other.go stubs them for purego
// builds and other architectures, where the guards keep them from running.

// AdamAVX2 is in adam_amd64.s (AdamGo is its reference).
//
//go:noescape
func AdamAVX2(w, grad, m, v *float32, n int, k *AdamConsts)

// AddRowsAVX2 is in colsum_amd64.s (AddRowsGo is its reference).
//
//go:noescape
func AddRowsAVX2(acc, src *float32, rows, ld, cols int)

// TransposeStripAVX is in transpose_amd64.s (TransposeStripGo is its
// reference).
//
//go:noescape
func TransposeStripAVX(dst *float32, ldd int, src *float32, lds int, blocks int)
