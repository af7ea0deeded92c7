package data

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

// binHeader is a binarised corpus header with the given counts and extra
// zero bytes after it.
func binHeader(n, ns, nt uint64, extra int) []byte {
	b := []byte(binMagic)
	for _, v := range []uint64{n, ns, nt} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return append(b, make([]byte, extra)...)
}

// Counts whose sizes overflow the size check (4·3·2^62 wraps to 0) must be
// rejected before anything is allocated; they used to pass the check and
// allocate 2^62 line numbers.
func TestParseCorpusHostileHeader(t *testing.T) {
	cases := []struct {
		name string
		file []byte
	}{
		{"2^62 pairs wrap to 0 bytes", binHeader(1<<62, 0, 0, 0)},
		{"2^62 source tokens wrap", binHeader(0, 1<<62, 0, 0)},
		{"tokens wrap to 8 bytes", binHeader(0, 1<<62+1, 1<<62+1, 8)},
		{"2^40 pairs", binHeader(1<<40, 0, 0, 64)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := parseCorpus("hostile.bin", c.file, 100)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "hostile.bin") {
				t.Fatalf("got %v, want an error naming the file", err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Fatalf("allocated %d bytes for a %d-byte file", n, len(c.file))
			}
		})
	}
}
