package format

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// Tensor file layout, little-endian:
//
//	magic   "STRATA\x00T"                      8 bytes
//	version uint32                             1 (float32) or 2 (int8 matrices)
//	hlen    uint32                             length of the JSON header
//	header  JSON: {"meta": <any>, "tensors": [{"name","shape","dtype"}...]}
//	data    each tensor's payload, in header order
//	crc     uint32 CRC-32C of everything above
//
// A float32 payload is the row-major values. An int8 payload (entries
// with "dtype": "int8", in version 2 files) is the matrix's row scales
// (float32, one per row), then its row-major int8 values, padded with
// zeros to a multiple of 4 bytes. Version 1 files hold float32 only.
//
// The JSON header carries the caller's metadata (model configuration,
// optimiser step, data position ...) so that one file is self-describing;
// the checksum makes truncation or corruption a clear error instead of a
// silently broken model.
const Magic = "STRATA\x00T"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the CRC-32C a file ends with, of b (the file before it).
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Entry names one tensor in a file.
type Entry struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
	// DType is "" for float32, "int8" for int8 matrices.
	DType string `json:"dtype,omitempty"`
}

// Header is a file's JSON header.
type Header struct {
	Meta    json.RawMessage `json:"meta"`
	Tensors []Entry         `json:"tensors"`
}

// Version is the file version of files stored in f (F32 or Int8).
func Version(f Format) uint32 {
	v := f.facts().version
	if v == 0 {
		panic(fmt.Sprintf("format: files are not stored in %s", f))
	}
	return v
}

// DType is what entries stored in f carry in the header ("" for float32).
func DType(f Format) string { return f.facts().dtype }

// Format is the format e's payload is stored in: Int8 for an int8
// matrix, F32 otherwise (a data type Read refuses included).
func (e Entry) Format() Format {
	if e.DType == table[Int8].dtype {
		return Int8
	}
	return F32
}

// Stored is the weight format of a file with header h: Int8 when it
// holds an int8 entry, F32 otherwise.
func Stored(h Header) Format {
	for _, e := range h.Tensors {
		if e.Format() == Int8 {
			return Int8
		}
	}
	return F32
}

// Writer writes the payloads of a file, in header order.
type Writer struct{ bw *bufio.Writer }

// Floats writes little-endian float32 values, converting a chunk at a
// time (a write per value costs twice as long on large models).
func (w Writer) Floats(data []float32) {
	var buf [4 * chunk]byte
	for i := 0; i < len(data); i += chunk {
		part := data[i:min(i+chunk, len(data))]
		for j, v := range part {
			binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(v))
		}
		w.bw.Write(buf[:4*len(part)])
	}
}

// Int8 writes an int8 matrix's payload: its row scales, its values and
// the padding to 4 bytes.
func (w Writer) Int8(scale []float32, q []int8) {
	w.Floats(scale)
	for _, v := range q {
		w.bw.WriteByte(byte(v))
	}
	w.bw.Write(make([]byte, pad4(len(q))))
}

func pad4(n int) int { return (4 - n%4) % 4 }

// Write writes a file stored in format f (F32 or Int8: its version):
// magic, version, the JSON header (meta, any JSON-encodable value, and
// entries), what body writes, and the CRC-32C of all of it.
func Write(w io.Writer, f Format, meta any, entries []Entry, body func(Writer)) error {
	version := Version(f)
	m, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	hb, err := json.Marshal(Header{Meta: m, Tensors: entries})
	if err != nil {
		return err
	}
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	bw.WriteString(Magic)
	binary.Write(bw, binary.LittleEndian, version)
	binary.Write(bw, binary.LittleEndian, uint32(len(hb)))
	bw.Write(hb)
	body(Writer{bw})
	if err := bw.Flush(); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, crc.Sum32())
}

// ErrNotTensorFile is returned for files that do not start with the magic.
var ErrNotTensorFile = errors.New("not a strata tensor file (bad magic)")
