package engine

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// Tensor file format (version 1), little-endian:
//
//	magic   "STRATA\x00T"                      8 bytes
//	version uint32                             currently 1
//	hlen    uint32                             length of the JSON header
//	header  JSON: {"meta": <any>, "tensors": [{"name","shape"}...]}
//	data    float32 values of each tensor, in header order
//	crc     uint32 CRC-32C of everything above
//
// The JSON header carries the caller's metadata (model configuration,
// optimiser step, data position ...) so that one file is self-describing;
// the checksum makes truncation or corruption a clear error instead of a
// silently broken model.
const (
	fileMagic   = "STRATA\x00T"
	fileVersion = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// TensorEntry names one tensor in a file.
type TensorEntry struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
	// DType is "" for float32, "int8" in quantized files (int8_file.go).
	DType string `json:"dtype,omitempty"`
}

type fileHeader struct {
	Meta    json.RawMessage `json:"meta"`
	Tensors []TensorEntry   `json:"tensors"`
}

// WriteTensors writes meta (any JSON-encodable value) and the tensors.
func WriteTensors(w io.Writer, meta any, tensors []*Tensor) error {
	entries := make([]TensorEntry, len(tensors))
	for i, t := range tensors {
		entries[i] = TensorEntry{Name: t.Name, Shape: append([]int(nil), t.Shape()...)}
	}
	return writeTensorFile(w, fileVersion, meta, entries, func(bw *bufio.Writer) {
		for _, t := range tensors {
			writeFloats(bw, t.Data)
		}
	})
}

// writeTensorFile writes a tensor file of the given version: magic, version,
// the JSON header (meta and entries), what body writes, and the CRC-32C of
// all of it.
func writeTensorFile(w io.Writer, version uint32, meta any, entries []TensorEntry, body func(*bufio.Writer)) error {
	m, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	hb, err := json.Marshal(fileHeader{Meta: m, Tensors: entries})
	if err != nil {
		return err
	}
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	bw.WriteString(fileMagic)
	binary.Write(bw, binary.LittleEndian, version)
	binary.Write(bw, binary.LittleEndian, uint32(len(hb)))
	bw.Write(hb)
	body(bw)
	if err := bw.Flush(); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, crc.Sum32())
}

// writeFloats writes little-endian float32 values, converting a chunk at a
// time (a write per value costs twice as long on large models).
func writeFloats(bw *bufio.Writer, data []float32) {
	var buf [4 * 4096]byte
	for i := 0; i < len(data); i += 4096 {
		chunk := data[i:min(i+4096, len(data))]
		for j, v := range chunk {
			binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(v))
		}
		bw.Write(buf[:4*len(chunk)])
	}
}

// ErrNotTensorFile is returned for files that do not start with the magic.
var ErrNotTensorFile = errors.New("not a strata tensor file (bad magic)")

// ReadTensors reads a file written by WriteTensors, verifying its checksum.
// meta receives the JSON metadata (pass nil to skip it).
func ReadTensors(r io.Reader, meta any) ([]*Tensor, error) {
	raw := bufio.NewReaderSize(r, 1<<20)
	br := &hashingReader{r: raw, h: crc32.New(castagnoli)}
	h, err := readHeader(br)
	if err != nil {
		return nil, err
	}
	if meta != nil && len(h.Meta) > 0 {
		if err := json.Unmarshal(h.Meta, meta); err != nil {
			return nil, fmt.Errorf("decode metadata: %w", err)
		}
	}
	out := make([]*Tensor, 0, len(h.Tensors))
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

func readHeader(br io.Reader) (fileHeader, error) {
	var h fileHeader
	magic := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != fileMagic {
		return h, ErrNotTensorFile
	}
	var ver, hlen uint32
	if err := binary.Read(br, binary.LittleEndian, &ver); err != nil {
		return h, truncated(err)
	}
	if ver != fileVersion && ver != fileVersionInt8 {
		return h, fmt.Errorf("tensor file version %d, this strata reads versions %d and %d", ver, fileVersion, fileVersionInt8)
	}
	if err := binary.Read(br, binary.LittleEndian, &hlen); err != nil {
		return h, truncated(err)
	}
	if hlen > 1<<28 {
		return h, fmt.Errorf("corrupt tensor file: header length %d", hlen)
	}
	// ReadAll grows its buffer with what arrives, so a header length
	// larger than the file costs no more memory than the file.
	hb, err := io.ReadAll(io.LimitReader(br, int64(hlen)))
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

// maxTensorElements bounds a tensor's claimed size (16 TiB of float32) so
// that the product of its dimensions cannot overflow.
const maxTensorElements = 1 << 42

// readChunk is how many values readTensor reads at a time.
const readChunk = 4096

func readTensor(br io.Reader, e TensorEntry) (*Tensor, error) {
	if len(e.Shape) == 0 || len(e.Shape) > MaxDims {
		return nil, fmt.Errorf("corrupt tensor file: %s has shape %v", e.Name, e.Shape)
	}
	n := 1
	for _, s := range e.Shape {
		if s < 0 || (s > 0 && n > maxTensorElements/s) {
			return nil, fmt.Errorf("corrupt tensor file: %s has shape %v", e.Name, e.Shape)
		}
		n *= s
	}
	switch e.DType {
	case dtypeInt8:
		return readInt8Tensor(br, e, n)
	case "":
	default:
		return nil, fmt.Errorf("tensor file: %s has data type %q, this strata reads float32 and int8", e.Name, e.DType)
	}
	// The shape comes from the file: the values buffer grows (doubling,
	// from 1 Mi values) with the values actually read, so a header that
	// claims more than the file holds fails as truncated without
	// allocating what it claims.
	data := make([]float32, 0, min(n, 1<<20))
	buf := make([]byte, 4*readChunk)
	for len(data) < n {
		k := min(readChunk, n-len(data))
		if _, err := io.ReadFull(br, buf[:4*k]); err != nil {
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
	t := FromData(data, e.Shape...)
	t.Name = e.Name
	return t, nil
}

func truncated(err error) error {
	return fmt.Errorf("truncated tensor file: %w", err)
}
