package subword

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Marker replaces every space; it starts each word.
const Marker = "▁"

// markerRune is Marker as a rune.
const markerRune = '▁'

// NumBytePieces is the number of byte-fallback pieces at the start of every
// model's piece list (<0x00>..<0xFF>): piece i < 256 is byte i.
const NumBytePieces = 256

// DefaultMaxPieceRunes bounds the length of a learned piece, as SentencePiece's
// max_sentencepiece_length.
const DefaultMaxPieceRunes = 16

const formatName = "strata-bpe"
const formatVersion = 1

// Model is a learned BPE model. Pieces are indexed 0..NumPieces()-1: bytes,
// then the alphabet, then one piece per merge in learning order.
type Model struct {
	alphabet      []string   // single characters, the marker included
	merges        [][2]int32 // piece indices of the left and right part
	maxPieceRunes int

	pieces []string         // derived: text of every piece
	charID map[rune]int32   // derived: alphabet rune -> piece index
	ascii  [128]int32       // derived: fast path of charID for ASCII
	ranks  map[uint64]int32 // derived: pair -> merge rank
	byText map[string]int32 // derived: piece text -> index (not bytes)
}

type modelFile struct {
	Format        string     `json:"format"`
	Version       int        `json:"version"`
	Marker        string     `json:"marker"`
	MaxPieceRunes int        `json:"max_piece_runes"`
	Alphabet      []string   `json:"alphabet"`
	Merges        [][2]int32 `json:"merges"`
}

// NewModel builds a model from its alphabet and merges (piece indices), as
// Learn produces them. It checks that the merges only refer to earlier pieces.
func NewModel(alphabet []string, merges [][2]int32, maxPieceRunes int) (*Model, error) {
	m := &Model{alphabet: alphabet, merges: merges, maxPieceRunes: maxPieceRunes}
	if err := m.derive(); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Model) derive() error {
	n := NumBytePieces + len(m.alphabet) + len(m.merges)
	m.pieces = make([]string, 0, n)
	for b := 0; b < NumBytePieces; b++ {
		m.pieces = append(m.pieces, fmt.Sprintf("<0x%02X>", b))
	}
	m.charID = make(map[rune]int32, len(m.alphabet))
	for i := range m.ascii {
		m.ascii[i] = -1
	}
	hasMarker := false
	for i, c := range m.alphabet {
		r, size := utf8.DecodeRuneInString(c)
		if (r == utf8.RuneError && size == 1) || size != len(c) {
			return fmt.Errorf("subword: alphabet entry %d (%q) is not one character", i, c)
		}
		if _, dup := m.charID[r]; dup {
			return fmt.Errorf("subword: alphabet entry %d (%q) repeats", i, c)
		}
		id := int32(len(m.pieces))
		m.charID[r] = id
		if r < 128 {
			m.ascii[r] = id
		}
		hasMarker = hasMarker || r == markerRune
		m.pieces = append(m.pieces, c)
	}
	if !hasMarker {
		return fmt.Errorf("subword: alphabet lacks the marker %s", Marker)
	}
	m.ranks = make(map[uint64]int32, len(m.merges))
	for i, p := range m.merges {
		id := int32(len(m.pieces))
		if p[0] < NumBytePieces || p[1] < NumBytePieces || p[0] >= id || p[1] >= id {
			return fmt.Errorf("subword: merge %d (%d, %d) refers to a byte or later piece", i, p[0], p[1])
		}
		right := m.pieces[p[1]]
		if strings.HasPrefix(right, Marker) {
			return fmt.Errorf("subword: merge %d puts the marker inside a piece", i)
		}
		key := pairKey(p[0], p[1])
		if _, dup := m.ranks[key]; dup {
			return fmt.Errorf("subword: merge %d repeats an earlier one", i)
		}
		m.ranks[key] = int32(i)
		m.pieces = append(m.pieces, m.pieces[p[0]]+right)
	}
	m.byText = make(map[string]int32, len(m.pieces))
	for i := NumBytePieces; i < len(m.pieces); i++ {
		m.byText[m.pieces[i]] = int32(i)
	}
	return nil
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// NumPieces is the number of pieces: bytes, alphabet and merges.
func (m *Model) NumPieces() int { return len(m.pieces) }

// NumMerges is the number of merges learned.
func (m *Model) NumMerges() int { return len(m.merges) }

// AlphabetSize is the number of single-character pieces.
func (m *Model) AlphabetSize() int { return len(m.alphabet) }

// Piece returns the text of piece i (byte pieces read <0xHH>).
func (m *Model) Piece(i int32) string { return m.pieces[i] }

// PieceID returns the index of a piece given its text, as Piece writes it.
func (m *Model) PieceID(text string) (int32, bool) {
	if id, ok := m.byText[text]; ok {
		return id, true
	}
	if len(text) == 6 && strings.HasPrefix(text, "<0x") && text[5] == '>' {
		hi, lo := upperHex(text[3]), upperHex(text[4])
		if hi >= 0 && lo >= 0 {
			return int32(hi<<4 | lo), true
		}
	}
	return 0, false
}

// upperHex is the value of an upper-case hex digit, or -1: byte pieces
// are spelled exactly as Piece writes them.
func upperHex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Save writes the model as JSON, atomically.
func (m *Model) Save(path string) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error { return m.Write(w) })
}

// Write writes the model as JSON.
func (m *Model) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	return enc.Encode(modelFile{
		Format: formatName, Version: formatVersion, Marker: Marker,
		MaxPieceRunes: m.maxPieceRunes, Alphabet: m.alphabet, Merges: m.merges,
	})
}

// Load reads a model written by Save.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Read reads a model written by Write.
func Read(r io.Reader) (*Model, error) {
	var mf modelFile
	if err := json.NewDecoder(r).Decode(&mf); err != nil {
		return nil, fmt.Errorf("subword: decode model: %w", err)
	}
	if mf.Format != formatName || mf.Version != formatVersion {
		return nil, fmt.Errorf("subword: not a %s v%d model (format %q version %d)", formatName, formatVersion, mf.Format, mf.Version)
	}
	if mf.Marker != Marker {
		return nil, fmt.Errorf("subword: model marker %q, want %q", mf.Marker, Marker)
	}
	return NewModel(mf.Alphabet, mf.Merges, mf.MaxPieceRunes)
}

// Decode turns piece indices back into text: byte pieces are raw bytes, the
// marker is a space, and the dummy space before the first word is removed.
// Decode(Encode(x)) == x for every string x.
func (m *Model) Decode(ids []int32) string {
	var sb strings.Builder
	for _, id := range ids {
		if id < 0 || int(id) >= len(m.pieces) {
			continue
		}
		if id < NumBytePieces {
			sb.WriteByte(byte(id))
			continue
		}
		p := m.pieces[id]
		if !strings.Contains(p, Marker) {
			sb.WriteString(p)
			continue
		}
		sb.WriteString(strings.ReplaceAll(p, Marker, " "))
	}
	s := sb.String()
	if len(s) > 0 && s[0] == ' ' && len(ids) > 0 && ids[0] >= NumBytePieces {
		s = s[1:]
	}
	return s
}
