// Package format is strata's tensor file format and the facts of each
// element format: the on-disk layout, the JSON header, float32 and int8
// payloads, and the checks that make a hostile or broken file an error
// rather than a panic or a huge allocation. It imports nothing from
// engine: engine's WriteTensors, ReadTensors and FileFormat turn its
// records into tensors and back.
package format

import "fmt"

// Format is an element format of weights, activations or caches. What is
// known of each lives in the table below: a new format (int4 weights,
// bf16 where the CPU has it) adds a row there, its payload reader and
// writer if files store it, and their tests.
type Format uint8

const (
	// Auto is no format yet: a model file's, or a default.
	Auto Format = iota
	// F32 is IEEE binary32.
	F32
	// F16 is IEEE binary16, widened to float32 as it is read (decoder
	// caches; never stored in files).
	F16
	// Int8 is signed bytes with float32 scales per row.
	Int8
)

// facts are what is known of one format.
type facts struct {
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
	// version is the file version of files that store matrices in this
	// format (0: files do not store it); dtype names its entries in the
	// header ("" for float32)
	version uint32
	dtype   string
}

var table = [...]facts{
	Auto: {name: ""},
	F32:  {name: "float32", bytes: 4, scales: "none", products: true, cache: true, defaultCache: F32, version: 1},
	F16:  {name: "float16", bytes: 2, scales: "none", cache: true},
	Int8: {name: "int8", bytes: 1, products: true, defaultCache: F16, version: 2, dtype: "int8",
		scales: "weights: one float32 per output row (symmetric, ±64); activations: one per input row, 7 or 8 bits, shifted to unsigned bytes"},
}

func (f Format) facts() facts {
	if int(f) >= len(table) {
		panic(fmt.Sprintf("format: format %d", f))
	}
	return table[f]
}

// String is the format's name ("float32", "float16", "int8"; "" for Auto).
func (f Format) String() string { return f.facts().name }

// Bytes is the storage of one element, scales not counted.
func (f Format) Bytes() int { return f.facts().bytes }

// Scales says how stored values map to reals.
func (f Format) Scales() string { return f.facts().scales }

// Products reports whether matrix products may run in f.
func (f Format) Products() bool { return f.facts().products }

// Cache reports whether decoder caches may be stored in f.
func (f Format) Cache() bool { return f.facts().cache }

// DefaultCache is the cache format of graphs whose products run in f
// (Auto where f is not a product format).
func (f Format) DefaultCache() Format { return f.facts().defaultCache }

// Names are the names of the formats keep accepts, in table order.
func Names(keep func(Format) bool) []string {
	var s []string
	for i := range table {
		if keep(Format(i)) {
			s = append(s, table[i].name)
		}
	}
	return s
}

// Parse reads a format's name ("" is Auto) among those keep accepts; what
// names the setting in the error ("compute", "cache").
func Parse(s, what string, keep func(Format) bool) (Format, error) {
	if s == "" {
		return Auto, nil
	}
	for i, x := range table {
		if x.name == s && keep(Format(i)) {
			return Format(i), nil
		}
	}
	return Auto, fmt.Errorf("%s type %q: must be one of %v", what, s, Names(keep))
}
