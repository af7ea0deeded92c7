package data

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash identifies the vocabulary by content: the SHA-256 of every token
// (specials, language tags, subword pieces) in id order, each followed by a
// newline, shortened to 16 hex digits. Two data directories whose
// vocabularies have the same size but other tokens (another BPE model,
// another language list) get different hashes, so a model trained on one
// is refused on the other instead of decoding garbage. The hash is stored
// in the data manifest and in every model and checkpoint trained on it.
func (v *Vocab) Hash() string {
	h := sha256.New()
	for id := int32(0); int(id) < v.Size(); id++ {
		h.Write([]byte(v.Token(id)))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}
