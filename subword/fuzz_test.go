package subword

import (
	"bytes"
	"slices"
	"testing"
	"unicode/utf8"
)

// fuzzModel is learned from a few lines with 95% character coverage, so
// that rare characters fall back to bytes.
func fuzzModel(t testing.TB) *Model {
	lines := []string{
		"the cat sat on the mat", "die Katze saß auf der Matte", "le chat était assis",
		"猫が座った", "кошка сидела на коврике", "the  cat\tsat ", "ǆ ǅ Ǆ ▁x",
	}
	wc := NewWordCounts()
	wc.AddLines(lines, 1)
	m, _, err := Learn(wc, Options{NumMerges: 40, CharacterCoverage: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkRoundTrip fails unless Decode(Encode(s)) == s (the package promises
// it for every string, invalid UTF-8 included), the cached second encoding
// matches the first, and the fallback counts add up.
func checkRoundTrip(t *testing.T, m *Model, e *Encoder, s string) {
	fb, fbBytes := e.Fallbacks, e.FallbackBytes
	ids := e.Encode(nil, s)
	if got := m.Decode(ids); got != s {
		t.Fatalf("Decode(Encode(%q)) = %q (pieces %v)", s, got, ids)
	}
	nBytes := int64(0)
	for _, id := range ids {
		if id < 0 || int(id) >= m.NumPieces() {
			t.Fatalf("Encode(%q) gave piece %d of %d", s, id, m.NumPieces())
		}
		if id < NumBytePieces {
			nBytes++
		}
	}
	if e.FallbackBytes-fbBytes != nBytes || (nBytes > 0) != (e.Fallbacks > fb) {
		t.Fatalf("Encode(%q): %d byte pieces, counted %d bytes in %d fallbacks", s, nBytes, e.FallbackBytes-fbBytes, e.Fallbacks-fb)
	}
	if again := e.Encode(nil, s); !slices.Equal(again, ids) {
		t.Fatalf("Encode(%q) from the cache %v, first %v", s, again, ids)
	}
}

// FuzzEncode: for any string (valid UTF-8 or not) Decode(Encode(x)) == x,
// pieces are in range, byte fallback counts add up, and EncodeLines agrees
// with an Encoder.
func FuzzEncode(f *testing.F) {
	m := fuzzModel(f)
	for _, s := range []string{"", " ", "the cat", "  lead and trail  ", "猫 кошка", "▁ literal marker", "\xff\xfe bad", "a\x00b\tc\r\n", "ǅ\u0301e\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := m.NewEncoder()
		checkRoundTrip(t, m, e, s)
		out, st := m.EncodeLines([]string{s, s}, 2, nil)
		if want := m.Encode(s); !slices.Equal(out[0], want) || !slices.Equal(out[1], want) || st.Lines != 2 {
			t.Fatalf("EncodeLines(%q) = %v, Encode %v", s, out, want)
		}
		if utf8.ValidString(s) && st.FallbackChars[InvalidByte] != 0 {
			t.Fatalf("valid UTF-8 %q counted invalid bytes", s)
		}
	})
}

// FuzzReadModel: any bytes give a model or an error, never a panic; a model
// that loads encodes losslessly and writes back to an equal model. Seeds:
// a model learned here and, in testdata/fuzz/FuzzReadModel, the bpe.json of
// a quickstart run (300 sentences).
func FuzzReadModel(f *testing.F) {
	var b bytes.Buffer
	if err := fuzzModel(f).Write(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"format":"strata-bpe","version":1,"marker":"▁","max_piece_runes":16,"alphabet":["▁","a","b"],"merges":[[257,258],[256,259]]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Read(bytes.NewReader(raw))
		if err != nil {
			return
		}
		e := m.NewEncoder()
		for _, s := range []string{"", "ab ba aab", "the cat \xff", "▁a▁"} {
			checkRoundTrip(t, m, e, s)
		}
		for i := 0; i < m.NumPieces(); i++ {
			// Two merges may spell the same text, so only the text must
			// survive the round trip, not the index.
			if id, ok := m.PieceID(m.Piece(int32(i))); !ok || m.Piece(id) != m.Piece(int32(i)) {
				t.Fatalf("PieceID(Piece(%d) = %q) = %d, %v", i, m.Piece(int32(i)), id, ok)
			}
		}
		var out bytes.Buffer
		if err := m.Write(&out); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&out)
		if err != nil || back.NumPieces() != m.NumPieces() {
			t.Fatalf("re-reading a model that was read: %v", err)
		}
	})
}
