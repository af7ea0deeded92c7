package subword

import "testing"

// PieceID is the inverse of Piece: byte pieces are found by their own
// spelling <0xHH> (upper-case hex) only. Sscanf used to accept <0x4a>,
// <0x+1> and <0x 1> as bytes 0x4A and 1, so the vocabulary's TokenID was
// not the inverse of Token.
func TestPieceIDOnlyCanonicalBytes(t *testing.T) {
	m := fuzzModel(t)
	for _, s := range []string{"<0x4a>", "<0x+1>", "<0x 1>", "<0x-1>", "<0xG0>", "<0x1>", "<0x001>"} {
		if id, ok := m.PieceID(s); ok {
			t.Errorf("PieceID(%q) = %d (%q)", s, id, m.Piece(id))
		}
	}
	for b := 0; b < NumBytePieces; b++ {
		if id, ok := m.PieceID(m.Piece(int32(b))); !ok || id != int32(b) {
			t.Errorf("PieceID(%q) = %d, %v", m.Piece(int32(b)), id, ok)
		}
	}
}
