package engine

import "fmt"

// Format is an element format of weights, activations or caches. What the
// engine knows of each lives in the formats table below: a new format (int4
// weights, bf16 where the CPU has it) adds a row there, its kernels and
// their tests.
type Format uint8

const (
	// FormatAuto is no format yet: the model file's, or a default
	// (ResolveComputeType).
	FormatAuto Format = iota
	// FormatF32 is IEEE binary32.
	FormatF32
	// FormatF16 is IEEE binary16, widened to float32 as it is read
	// (decoder caches; half.go).
	FormatF16
	// FormatInt8 is signed bytes with float32 scales per row (int8.go).
	FormatInt8
)

// formatFacts are what the engine knows of one format.
type formatFacts struct {
	name string
	// bytes per stored element, scales not counted
	bytes int
	// scales: how values map to reals
	scales string
	// products: matrix products may run in it; cache: decoder caches may
	// be stored in it
	products, cache bool
	// defaultCache is the cache format of graphs whose products run in
	// this one
	defaultCache Format
	// kernel names the kernel its products run on, for activations of
	// the given width (int8 only; `strata env`)
	kernel func(bits int) string
}

var formats = [...]formatFacts{
	FormatAuto: {name: ""},
	FormatF32: {name: "float32", bytes: 4, scales: "none", products: true, cache: true, defaultCache: FormatF32,
		kernel: func(int) string { return F32Kernel() }},
	FormatF16: {name: "float16", bytes: 2, scales: "none", cache: true},
	FormatInt8: {name: "int8", bytes: 1, products: true, defaultCache: FormatF16,
		scales: "weights: one float32 per output row (symmetric, ±127); activations: one per input row, 7 or 8 bits, shifted to unsigned bytes",
		kernel: Int8KernelFor},
}

func (f Format) facts() formatFacts {
	if int(f) >= len(formats) {
		panic(fmt.Sprintf("engine: format %d", f))
	}
	return formats[f]
}

// String is the format's name ("float32", "float16", "int8"; "" for
// FormatAuto).
func (f Format) String() string { return f.facts().name }

// Bytes is the storage of one element, scales not counted.
func (f Format) Bytes() int { return f.facts().bytes }

// Scales says how stored values map to reals.
func (f Format) Scales() string { return f.facts().scales }

// Kernel names the kernel products in f run on with activations of the
// given width (0: the default), "" where f is not a product format.
func (f Format) Kernel(bits int) string {
	if k := f.facts().kernel; k != nil {
		return k(bits)
	}
	return ""
}

// ProductFormats and CacheFormats are the names ParseComputeType accepts.
var (
	ProductFormats = formatNames(func(x formatFacts) bool { return x.products })
	CacheFormats   = formatNames(func(x formatFacts) bool { return x.cache })
)

func formatNames(keep func(formatFacts) bool) []string {
	var s []string
	for _, x := range formats {
		if keep(x) {
			s = append(s, x.name)
		}
	}
	return s
}

// parseFormat reads a format's name ("" is FormatAuto) among those keep
// accepts.
func parseFormat(s, what string, keep func(formatFacts) bool) (Format, error) {
	if s == "" {
		return FormatAuto, nil
	}
	for i, x := range formats {
		if x.name == s && keep(x) {
			return Format(i), nil
		}
	}
	return FormatAuto, fmt.Errorf("%s type %q: must be one of %v", what, s, formatNames(keep))
}
