package format

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

// allocatedBy returns the bytes f allocates (cumulative, freed or not).
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Headers that claim more data than the file holds fail with an error
// before allocating it (the reader's buffer is 1 MiB; 8 MiB is the bound).
func TestReadTensorsHostileHeaders(t *testing.T) {
	hugeHeader := func() []byte {
		var b bytes.Buffer
		b.WriteString(Magic)
		binary.Write(&b, binary.LittleEndian, Version(F32))
		binary.Write(&b, binary.LittleEndian, uint32(1<<28)) // 256 MiB header, 2 bytes present
		b.WriteString("{}")
		return b.Bytes()
	}
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"2^40 elements", withHeader(`{"tensors":[{"name":"big","shape":[1048576,1048576]}]}`, make([]byte, 64)), "truncated"},
		{"2^40 elements in 4 dims", withHeader(`{"tensors":[{"name":"big","shape":[1024,1024,1024,1024]}]}`, nil), "truncated"},
		{"shape product overflows to 0", withHeader(`{"tensors":[{"name":"wrap","shape":[2147483648,2147483648,2147483648,2147483648]}]}`, nil), "shape"},
		{"shape product overflows int64", withHeader(`{"tensors":[{"name":"wrap","shape":[2147483647,2147483647,2147483647,3]}]}`, nil), "shape"},
		{"second tensor too big", withHeader(`{"tensors":[{"name":"a","shape":[2]},{"name":"b","shape":[1073741824]}]}`, make([]byte, 8)), "truncated"},
		{"header length 2^28", hugeHeader(), "truncated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			n := allocatedBy(func() { _, err = Read(bytes.NewReader(c.file), nil) })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got error %v, want one mentioning %q", err, c.want)
			}
			if n > 8<<20 {
				t.Fatalf("allocated %d MiB for a %d-byte file", n>>20, len(c.file))
			}
		})
	}
}

// withHeaderV2 is withHeader for version 2 (int8) files.
func withHeaderV2(header string, payload []byte) []byte {
	b := withHeader(header, payload)
	binary.LittleEndian.PutUint32(b[len(Magic):], Version(Int8))
	fixChecksum(b)
	return b
}

// An int8 tensor whose shape claims 2^40 values fails as truncated without
// allocating them.
func TestReadTensorsHostileInt8(t *testing.T) {
	file := withHeaderV2(`{"tensors":[{"name":"big","shape":[1048576,1048576],"dtype":"int8"}]}`, make([]byte, 64))
	var err error
	n := allocatedBy(func() { _, err = Read(bytes.NewReader(file), nil) })
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("got error %v, want truncated", err)
	}
	if n > 8<<20 {
		t.Fatalf("allocated %d MiB for a %d-byte file", n>>20, len(file))
	}
}

// withHeader builds a tensor file with a hand-written JSON header and
// payload, and a correct checksum, so that only the header is hostile.
func withHeader(header string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString(Magic)
	binary.Write(&b, binary.LittleEndian, Version(F32))
	binary.Write(&b, binary.LittleEndian, uint32(len(header)))
	b.WriteString(header)
	b.Write(payload)
	binary.Write(&b, binary.LittleEndian, Checksum(b.Bytes()))
	return b.Bytes()
}

// fixChecksum rewrites the last 4 bytes of a tensor file with the checksum
// of the rest.
func fixChecksum(b []byte) {
	if len(b) >= 4 {
		binary.LittleEndian.PutUint32(b[len(b)-4:], Checksum(b[:len(b)-4]))
	}
}
