package engine

import "github.com/strata-nmt/strata/engine/internal/format"

// Format is an element format of weights, activations or caches. Its
// facts (name, bytes per element, scales, whether products or caches may
// use it, how files store it) are one row of the table in
// engine/internal/format; the kernel its products run on is formatKernels'
// row below. A new format (int4 weights, bf16 where the CPU has it) adds
// both rows, its kernels and their tests.
type Format format.Format

const (
	// FormatAuto is no format yet: the model file's, or a default
	// (ResolveComputeType).
	FormatAuto = Format(format.Auto)
	// FormatF32 is IEEE binary32.
	FormatF32 = Format(format.F32)
	// FormatF16 is IEEE binary16, widened to float32 as it is read
	// (decoder caches; half.go).
	FormatF16 = Format(format.F16)
	// FormatInt8 is signed bytes with float32 scales per row (int8.go).
	FormatInt8 = Format(format.Int8)
)

// formatKernels name the kernel products in a format run on, for
// activations of the given width (`strata env`); nil for formats products
// do not run in.
var formatKernels = [...]func(bits int) string{
	FormatF32:  func(int) string { return F32Kernel() },
	FormatInt8: Int8KernelFor,
}

func (f Format) in() format.Format { return format.Format(f) }

// String is the format's name ("float32", "float16", "int8"; "" for
// FormatAuto).
func (f Format) String() string { return f.in().String() }

// Bytes is the storage of one element, scales not counted.
func (f Format) Bytes() int { return f.in().Bytes() }

// Scales says how stored values map to reals.
func (f Format) Scales() string { return f.in().Scales() }

// Kernel names the kernel products in f run on with activations of the
// given width (0: the default), "" where f is not a product format.
func (f Format) Kernel(bits int) string {
	if int(f) < len(formatKernels) && formatKernels[f] != nil {
		return formatKernels[f](bits)
	}
	return ""
}

// ProductFormats and CacheFormats are the names ParseComputeType accepts.
var (
	ProductFormats = format.Names(format.Format.Products)
	CacheFormats   = format.Names(format.Format.Cache)
)
