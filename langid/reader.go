package langid

import (
	"encoding/binary"
	"fmt"
	"math"
)

// binReader decodes the little-endian fields of a fastText model held in
// memory. fastText writes raw C++ objects with ostream::write, so the format
// has no framing or checksums: every read is bounds-checked here so that a
// truncated file gives an error naming the field and offset instead of a
// panic or garbage.
type binReader struct {
	name string // file name for error messages
	buf  []byte
	off  int
}

// truncated reports a read past the end of the data.
func (r *binReader) truncated(what string, need int) error {
	return fmt.Errorf("%s: truncated fastText model: need %d bytes for %s at offset %d, file has %d bytes",
		r.name, need, what, r.off, len(r.buf))
}

func (r *binReader) take(what string, n int) ([]byte, error) {
	if n < 0 || n > len(r.buf)-r.off {
		return nil, r.truncated(what, n)
	}
	b := r.buf[r.off : r.off+n]
	r.off += n
	return b, nil
}

func (r *binReader) int32(what string) (int32, error) {
	b, err := r.take(what, 4)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b)), nil
}

func (r *binReader) int64(what string) (int64, error) {
	b, err := r.take(what, 8)
	if err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(b)), nil
}

func (r *binReader) float64(what string) (float64, error) {
	b, err := r.take(what, 8)
	if err != nil {
		return 0, err
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
}

// bool reads a C++ bool (one byte, 0 or 1).
func (r *binReader) bool(what string) (bool, error) {
	b, err := r.take(what, 1)
	if err != nil {
		return false, err
	}
	if b[0] > 1 {
		return false, fmt.Errorf("%s: corrupt fastText model: %s at offset %d is %d, want a bool (0 or 1)",
			r.name, what, r.off-1, b[0])
	}
	return b[0] == 1, nil
}

func (r *binReader) byte(what string) (byte, error) {
	b, err := r.take(what, 1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// cstring reads a NUL-terminated string (dictionary entries).
func (r *binReader) cstring(what string) (string, error) {
	for i := r.off; i < len(r.buf); i++ {
		if r.buf[i] == 0 {
			s := string(r.buf[r.off:i])
			r.off = i + 1
			return s, nil
		}
	}
	return "", fmt.Errorf("%s: truncated fastText model: %s at offset %d has no terminating NUL byte",
		r.name, what, r.off)
}

// float32s reads n little-endian float32 values.
func (r *binReader) float32s(what string, n int64) ([]float32, error) {
	if n < 0 || n > int64(len(r.buf)-r.off)/4 {
		return nil, r.truncated(what, int(min(n*4, math.MaxInt32)))
	}
	b, _ := r.take(what, int(n)*4)
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

// bytes reads n raw bytes (quantisation codes); the result aliases nothing
// the caller may later modify, because the model keeps the file buffer alive
// only through these slices.
func (r *binReader) bytes(what string, n int64) ([]byte, error) {
	if n < 0 || n > int64(len(r.buf)-r.off) {
		return nil, r.truncated(what, int(min(n, math.MaxInt32)))
	}
	b, _ := r.take(what, int(n))
	return b, nil
}

// corrupt reports an implausible value read from the model.
func (r *binReader) corrupt(format string, args ...any) error {
	return fmt.Errorf("%s: corrupt fastText model (offset %d): %s", r.name, r.off, fmt.Sprintf(format, args...))
}
