package mo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Magic is the first word of every MO file, in the file's byte order.
const Magic = 0x950412de

// DefaultMaxSize bounds what Read and ReadFile accept: the largest Debian
// catalogues are a few MiB, so 64 MiB leaves room without letting a
// hostile stream exhaust memory.
const DefaultMaxSize = 64 << 20

// headerSize is the fixed part of the header: magic, revision, string
// count, the two table offsets, hash table size and offset.
const headerSize = 28

// Message is one catalogue entry.
type Message struct {
	// Context is the msgctxt, "" when there is none.
	Context string
	// ID is the msgid; "" only for the header entry.
	ID string
	// Plural is the msgid_plural, "" when the entry has no plural forms.
	Plural string
	// Str holds msgstr, or msgstr[0], msgstr[1], ... for a plural entry.
	Str []string
}

// Catalog is a parsed MO file.
type Catalog struct {
	// ByteOrder is the file's byte order.
	ByteOrder binary.ByteOrder
	// Major and Minor are the format revision (0 or 1, and any minor).
	Major, Minor uint16
	// Header is the msgstr of the entry with an empty msgid (Project-Id,
	// Content-Type, Plural-Forms...), "" when the file has none.
	Header string
	// Charset is the charset the header declares; strings have been
	// converted from it to UTF-8.
	Charset string
	// Messages are the entries other than the header, in file order.
	Messages []Message
}

// ReadFile reads and parses an MO file of at most DefaultMaxSize bytes.
func ReadFile(path string) (*Catalog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f, DefaultMaxSize)
}

// Read parses an MO file from r, reading at most maxSize bytes; a longer
// stream is an error rather than an unbounded allocation. name labels
// errors.
func Read(name string, r io.Reader, maxSize int64) (*Catalog, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > maxSize {
		return nil, fmt.Errorf("%s: larger than the limit of %d bytes for an MO file", name, maxSize)
	}
	return Parse(name, b)
}

// Parse parses the bytes of an MO file. name labels errors.
func Parse(name string, b []byte) (*Catalog, error) {
	c, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

func parse(b []byte) (*Catalog, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("truncated: %d bytes, an MO header needs %d", len(b), headerSize)
	}
	c := &Catalog{}
	switch {
	case binary.LittleEndian.Uint32(b) == Magic:
		c.ByteOrder = binary.LittleEndian
	case binary.BigEndian.Uint32(b) == Magic:
		c.ByteOrder = binary.BigEndian
	default:
		return nil, fmt.Errorf("magic %#08x: not an MO file (want %#08x in either byte order)", binary.LittleEndian.Uint32(b), uint32(Magic))
	}
	bo := c.ByteOrder
	rev := bo.Uint32(b[4:])
	c.Major, c.Minor = uint16(rev>>16), uint16(rev)
	if c.Major > 1 {
		// libintl refuses major revisions it does not know, and so do we.
		return nil, fmt.Errorf("format revision %d.%d: only major revisions 0 and 1 exist", c.Major, c.Minor)
	}
	n, origOff, transOff := bo.Uint32(b[8:]), bo.Uint32(b[12:]), bo.Uint32(b[16:])
	orig, err := table(b, bo, "original", n, origOff)
	if err != nil {
		return nil, err
	}
	trans, err := table(b, bo, "translation", n, transOff)
	if err != nil {
		return nil, err
	}
	raws := make([][2]string, n)
	for i := range raws {
		if raws[i][0], err = orig.str(i); err != nil {
			return nil, err
		}
		if raws[i][1], err = trans.str(i); err != nil {
			return nil, err
		}
	}
	return c, c.fill(raws)
}

// fill decodes the raw string pairs into the header and messages.
func (c *Catalog) fill(raws [][2]string) error {
	for _, r := range raws {
		if r[0] == "" {
			c.Header = r[1]
		}
	}
	c.Charset = headerField(c.Header, "Content-Type", "charset=")
	conv, err := converter(c.Charset)
	if err != nil {
		return err
	}
	c.Header, err = conv(c.Header)
	if err != nil {
		return fmt.Errorf("header entry: %w", err)
	}
	c.Messages = make([]Message, 0, len(raws))
	for i, r := range raws {
		if r[0] == "" {
			continue
		}
		m, err := decodeMessage(r[0], r[1], conv)
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		c.Messages = append(c.Messages, m)
	}
	return nil
}

func decodeMessage(id, str string, conv func(string) (string, error)) (Message, error) {
	var m Message
	if ctx, rest, ok := strings.Cut(id, "\x04"); ok {
		m.Context, id = ctx, rest
	}
	m.ID, m.Plural, _ = strings.Cut(id, "\x00")
	m.Str = strings.Split(str, "\x00")
	var err error
	for _, p := range []*string{&m.Context, &m.ID, &m.Plural} {
		if *p, err = conv(*p); err != nil {
			return m, err
		}
	}
	for i := range m.Str {
		if m.Str[i], err = conv(m.Str[i]); err != nil {
			return m, err
		}
	}
	return m, nil
}

// strTable is one of the two string descriptor tables.
type strTable struct {
	b    []byte
	bo   binary.ByteOrder
	name string
	off  uint32
}

// table checks that n descriptors of 8 bytes fit at off.
func table(b []byte, bo binary.ByteOrder, name string, n, off uint32) (strTable, error) {
	end := uint64(off) + 8*uint64(n)
	if end > uint64(len(b)) {
		return strTable{}, fmt.Errorf("truncated or corrupt: the %s string table (%d entries at offset %d) ends at byte %d, past the end of the file (%d bytes)", name, n, off, end, len(b))
	}
	return strTable{b: b, bo: bo, name: name, off: off}, nil
}

// str returns string i of the table; libintl requires the NUL after it.
func (t strTable) str(i int) (string, error) {
	d := t.b[int(t.off)+8*i:]
	length, off := t.bo.Uint32(d), t.bo.Uint32(d[4:])
	end := uint64(off) + uint64(length)
	if end >= uint64(len(t.b)) {
		return "", fmt.Errorf("truncated or corrupt: %s string %d (%d bytes at offset %d) runs past the end of the file (%d bytes)", t.name, i, length, off, len(t.b))
	}
	if t.b[end] != 0 {
		return "", fmt.Errorf("corrupt: %s string %d (%d bytes at offset %d) is not followed by a NUL byte", t.name, i, length, off)
	}
	return string(t.b[off:end]), nil
}

// headerField returns the value after key (e.g. "charset=") in the header
// line named field, "" when absent.
func headerField(header, field, key string) string {
	for _, line := range strings.Split(header, "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), field) {
			continue
		}
		if _, v, ok := strings.Cut(value, key); ok {
			v, _, _ = strings.Cut(v, ";")
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// ErrNotUTF8 reports bytes that are not valid in the declared charset.
var ErrNotUTF8 = errors.New("invalid UTF-8")
