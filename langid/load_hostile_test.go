package langid

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

// Length fields far beyond the file (a 2^31-entry dictionary, a 2^40-entry
// pruning index, a 2^40-row matrix) fail as truncated before anything of
// that size is allocated.
func TestParseHostileLengths(t *testing.T) {
	s := newSynth(7, lossSoftmax, 3, 2, 2, 3)
	s.dim, s.bucket = 2, 16
	s.words = s.words[:6]
	s.input = s.input[:int(int32(len(s.words))+s.bucket)*int(s.dim)]
	s.output = s.output[:len(s.labels)*int(s.dim)]
	good := s.encode()
	inputRows := len(good) - 4*len(s.output) - 16 - 1 - 4*len(s.input) - 16
	put32 := func(off int, v int32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], uint32(v)) }
	}
	put64 := func(off int, v int64) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint64(b[off:], uint64(v)) }
	}
	cases := []struct {
		name  string
		patch []func([]byte)
		want  string
	}{
		{"2^31-1 dictionary entries", []func([]byte){put32(64, 1<<31-1), put32(68, 1<<31-4)}, "truncated"},
		{"2^40 pruneidx pairs", []func([]byte){put64(84, 1<<40)}, "truncated"},
		{"2^40 input rows", []func([]byte){put64(inputRows, 1<<40)}, "truncated"},
		{"2^62 input rows", []func([]byte){put64(inputRows, 1<<62)}, "implausible shape"},
	}
	if _, err := Parse("good", good); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte(nil), good...)
			for _, p := range c.patch {
				p(b)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Parse("hostile.bin", b)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "hostile.bin") {
				t.Fatalf("got %v, want an error naming the file and saying %q", err, c.want)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Fatalf("allocated %d bytes for a %d-byte file", n, len(b))
			}
		})
	}
}

// A long word with a huge maxn asks for a quadratic number of character
// n-gram rows (initSubwords precomputes them): a 5 kB word and maxn 2^20
// would be 12.5 million rows from a 6 kB file. It must fail instead.
func TestParseHostileMaxn(t *testing.T) {
	s := newSynth(7, lossSoftmax, 3, 1, 1, 1<<20)
	s.dim, s.bucket = 2, 16
	s.words = append(s.words[:5], strings.Repeat("a", 5000))
	s.input = s.input[:int(int32(len(s.words))+s.bucket)*int(s.dim)]
	s.output = s.output[:len(s.labels)*int(s.dim)]
	b := s.encode()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("hostile.bin", b)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "n-gram") {
		t.Fatalf("got %v, want an error about character n-grams", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Fatalf("allocated %d MiB for a %d-byte file", n>>20, len(b))
	}
}
