package format

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// Limits a file's header must keep: MaxDims is the largest rank (the
// engine's Tensor rank), MaxElements bounds a tensor's claimed size (16
// TiB of float32) so that the product of its dimensions cannot overflow,
// Int8Max the magnitude of stored int8 weights (the engine's
// WeightQMax), maxHeader the JSON header's length.
const (
	MaxDims     = 4
	MaxElements = 1 << 42
	Int8Max     = 64
	maxHeader   = 1 << 28
)

// chunk is how many values are converted at a time.
const chunk = 4096

// Tensor is one tensor of a file: its entry and its payload, Data for
// float32 entries, Scale (one per row) and Q (row-major) for int8 ones.
type Tensor struct {
	Entry
	Data  []float32
	Scale []float32
	Q     []int8
}

// Read reads a file written by Write, verifying its checksum. meta
// receives the JSON metadata (nil skips it). The sizes in the header come
// from the file: buffers grow with the bytes that arrive, so a header
// that claims more than the file holds fails as truncated without
// allocating what it claims.
func Read(r io.Reader, meta any) ([]Tensor, error) {
	raw := bufio.NewReaderSize(r, 1<<20)
	br := &hashingReader{r: raw, h: crc32.New(castagnoli)}
	h, err := ReadHeader(br)
	if err != nil {
		return nil, err
	}
	if meta != nil && len(h.Meta) > 0 {
		if err := json.Unmarshal(h.Meta, meta); err != nil {
			return nil, fmt.Errorf("decode metadata: %w", err)
		}
	}
	out := make([]Tensor, 0, len(h.Tensors))
	for _, e := range h.Tensors {
		t, err := readTensor(br, e)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	want := br.h.Sum32()
	var got uint32
	if err := binary.Read(raw, binary.LittleEndian, &got); err != nil {
		return nil, truncated(fmt.Errorf("reading checksum: %w", err))
	}
	if got != want {
		return nil, fmt.Errorf("corrupt tensor file: checksum %08x, computed %08x", got, want)
	}
	return out, nil
}

// hashingReader hashes exactly the bytes its callers consume.
type hashingReader struct {
	r io.Reader
	h hash.Hash32
}

func (hr *hashingReader) Read(p []byte) (int, error) {
	n, err := hr.r.Read(p)
	hr.h.Write(p[:n])
	return n, err
}

// ReadHeader reads a file's magic, version and JSON header, leaving r at
// the first payload.
func ReadHeader(r io.Reader) (Header, error) {
	var h Header
	magic := make([]byte, len(Magic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != Magic {
		return h, ErrNotTensorFile
	}
	var ver, hlen uint32
	if err := binary.Read(r, binary.LittleEndian, &ver); err != nil {
		return h, truncated(err)
	}
	if v1, v2 := Version(F32), Version(Int8); ver != v1 && ver != v2 {
		return h, fmt.Errorf("tensor file version %d, this strata reads versions %d and %d", ver, v1, v2)
	}
	if err := binary.Read(r, binary.LittleEndian, &hlen); err != nil {
		return h, truncated(err)
	}
	if hlen > maxHeader {
		return h, fmt.Errorf("corrupt tensor file: header length %d", hlen)
	}
	// ReadAll grows its buffer with what arrives, so a header length
	// larger than the file costs no more memory than the file.
	hb, err := io.ReadAll(io.LimitReader(r, int64(hlen)))
	if err != nil {
		return h, truncated(err)
	}
	if len(hb) != int(hlen) {
		return h, truncated(fmt.Errorf("header of %d bytes, file has %d", hlen, len(hb)))
	}
	if err := json.Unmarshal(hb, &h); err != nil {
		return h, fmt.Errorf("corrupt tensor file header: %w", err)
	}
	return h, nil
}

// readTensor checks e's shape and data type and reads its payload.
func readTensor(r io.Reader, e Entry) (Tensor, error) {
	if len(e.Shape) == 0 || len(e.Shape) > MaxDims {
		return Tensor{}, fmt.Errorf("corrupt tensor file: %s has shape %v", e.Name, e.Shape)
	}
	n := 1
	for _, s := range e.Shape {
		if s < 0 || (s > 0 && n > MaxElements/s) {
			return Tensor{}, fmt.Errorf("corrupt tensor file: %s has shape %v", e.Name, e.Shape)
		}
		n *= s
	}
	switch e.DType {
	case DType(Int8):
		return readInt8(r, e, n)
	case DType(F32):
		data, err := readFloats(r, e, n)
		return Tensor{Entry: e, Data: data}, err
	default:
		return Tensor{}, fmt.Errorf("tensor file: %s has data type %q, this strata reads float32 and int8", e.Name, e.DType)
	}
}

// readFloats reads n float32 values. The values buffer grows (doubling,
// from 1 Mi values) with the values actually read.
func readFloats(r io.Reader, e Entry, n int) ([]float32, error) {
	data := make([]float32, 0, min(n, 1<<20))
	buf := make([]byte, 4*chunk)
	for len(data) < n {
		k := min(chunk, n-len(data))
		if _, err := io.ReadFull(r, buf[:4*k]); err != nil {
			return nil, truncated(fmt.Errorf("reading %s (%d values): %w", e.Name, n, err))
		}
		if len(data)+k > cap(data) {
			grown := make([]float32, len(data), min(n, 2*cap(data)))
			copy(grown, data)
			data = grown
		}
		for j := 0; j < k; j++ {
			data = append(data, math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:])))
		}
	}
	return data, nil
}

// readInt8 reads an int8 matrix's payload: its scales, then its values.
func readInt8(r io.Reader, e Entry, n int) (Tensor, error) {
	if len(e.Shape) != 2 {
		return Tensor{}, fmt.Errorf("corrupt tensor file: int8 tensor %s has shape %v (need a matrix)", e.Name, e.Shape)
	}
	rows := e.Shape[0]
	// ReadAll grows with the bytes that arrive, so a shape claiming more
	// than the file holds fails as truncated before anything of its size
	// is allocated.
	size := 4*rows + n + pad4(n)
	buf, err := io.ReadAll(io.LimitReader(r, int64(size)))
	if err == nil && len(buf) != size {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return Tensor{}, truncated(fmt.Errorf("reading %s (%d values): %w", e.Name, n, err))
	}
	scale := make([]float32, rows)
	for i := range scale {
		scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
	}
	q := make([]int8, n)
	for i, b := range buf[4*rows : 4*rows+n] {
		q[i] = int8(b)
		if q[i] < -Int8Max || q[i] > Int8Max {
			return Tensor{}, fmt.Errorf("corrupt tensor file: int8 tensor %s holds %d, outside ±%d", e.Name, q[i], Int8Max)
		}
	}
	return Tensor{Entry: e, Scale: scale, Q: q}, nil
}

func truncated(err error) error {
	return fmt.Errorf("truncated tensor file: %w", err)
}
