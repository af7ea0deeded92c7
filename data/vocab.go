package data

import (
	"fmt"
	"strings"

	"github.com/strata-nmt/strata/subword"
)

// Fixed special token ids. The trainer uses PadID as padding_idx.
const (
	PadID = 0 // <pad>
	BOSID = 1 // <s>
	EOSID = 2 // </s>
	UNKID = 3 // <unk>: never produced by Encode (bytes fall back), kept for compatibility
	// NumSpecial is the number of special tokens; language tags follow.
	NumSpecial = 4
)

// DecoderStart is the first decoder input token. It is </s>, as in fairseq
// (prev_output_tokens starts with eos), so models and checkpoints follow
// fairseq's convention.
const DecoderStart = EOSID

var specialTokens = [NumSpecial]string{"<pad>", "<s>", "</s>", "<unk>"}

// TagStyle spells language tags.
type TagStyle string

const (
	// TagAngle spells the tag of de as <2de> (Johnson et al. 2017).
	TagAngle TagStyle = "<2xx>"
	// TagFairseq spells it __de__ (fairseq's multilingual tasks).
	TagFairseq TagStyle = "__xx__"
)

// Tag returns the tag of lang in this style.
func (s TagStyle) Tag(lang string) string {
	if s == TagFairseq {
		return "__" + lang + "__"
	}
	return "<2" + lang + ">"
}

func parseTagStyle(s string) (TagStyle, error) {
	switch TagStyle(s) {
	case "", TagAngle:
		return TagAngle, nil
	case TagFairseq:
		return TagFairseq, nil
	}
	return "", fmt.Errorf("tag_style %q: want %q or %q", s, TagAngle, TagFairseq)
}

// Vocab maps text to token ids: ids 0..3 are the special tokens, then one tag
// per language (in the order of Languages), then the subword pieces (256
// byte pieces, the alphabet, the merges) in model order.
type Vocab struct {
	model  *subword.Model
	langs  []string
	style  TagStyle
	langID map[string]int
}

// NewVocab builds the vocabulary of a subword model and a language list.
func NewVocab(m *subword.Model, langs []string, style TagStyle) (*Vocab, error) {
	v := &Vocab{model: m, langs: langs, style: style, langID: make(map[string]int, len(langs))}
	for i, l := range langs {
		if err := checkLangCode(l); err != nil {
			return nil, err
		}
		if _, dup := v.langID[l]; dup {
			return nil, fmt.Errorf("language %q listed twice", l)
		}
		v.langID[l] = i
	}
	return v, nil
}

// Size is the number of token ids.
func (v *Vocab) Size() int { return v.pieceOffset() + v.model.NumPieces() }

func (v *Vocab) pieceOffset() int { return NumSpecial + len(v.langs) }

// Model is the subword model.
func (v *Vocab) Model() *subword.Model { return v.model }

// Languages lists the languages in tag order; a language's index here is the
// language id used in batches.
func (v *Vocab) Languages() []string { return v.langs }

// LangIndex returns the index of lang in Languages.
func (v *Vocab) LangIndex(lang string) (int, bool) {
	i, ok := v.langID[lang]
	return i, ok
}

// TagID returns the token id of lang's tag.
func (v *Vocab) TagID(lang string) (int32, bool) {
	i, ok := v.langID[lang]
	return int32(NumSpecial + i), ok
}

// TagStyle is the spelling of the tags.
func (v *Vocab) TagStyle() TagStyle { return v.style }

// IsTag says whether id is a language tag.
func (v *Vocab) IsTag(id int32) bool { return id >= NumSpecial && int(id) < v.pieceOffset() }

// Token returns the text of a token id: a special token, a tag, or a piece.
func (v *Vocab) Token(id int32) string {
	switch {
	case id < 0 || int(id) >= v.Size():
		return fmt.Sprintf("<bad:%d>", id)
	case id < NumSpecial:
		return specialTokens[id]
	case v.IsTag(id):
		return v.style.Tag(v.langs[id-NumSpecial])
	}
	return v.model.Piece(id - int32(v.pieceOffset()))
}

// TokenID is the inverse of Token.
func (v *Vocab) TokenID(tok string) (int32, bool) {
	for i, s := range specialTokens {
		if tok == s {
			return int32(i), true
		}
	}
	for i, l := range v.langs {
		if tok == v.style.Tag(l) {
			return int32(NumSpecial + i), true
		}
	}
	p, ok := v.model.PieceID(tok)
	return p + int32(v.pieceOffset()), ok
}

// Encode returns the token ids of text: subword pieces only, no tag and no
// </s> (the Sequencer adds those). The subword model is joint over all
// languages, so lang is not used; it is in the signature so that callers
// say which language they encode. Encode is safe for concurrent use but
// does not cache; use an Encoder for many lines.
func (v *Vocab) Encode(lang, text string) []int32 {
	return v.NewEncoder().Encode(nil, text)
}

// Encoder encodes many lines with a word cache; one per goroutine.
type Encoder struct {
	v *Vocab
	e *subword.Encoder
}

// NewEncoder returns an Encoder.
func (v *Vocab) NewEncoder() *Encoder { return &Encoder{v: v, e: v.model.NewEncoder()} }

// Encode appends the token ids of text to dst.
func (e *Encoder) Encode(dst []int32, text string) []int32 {
	start := len(dst)
	dst = e.e.Encode(dst, text)
	off := int32(e.v.pieceOffset())
	for i := start; i < len(dst); i++ {
		dst[i] += off
	}
	return dst
}

// Fallbacks is the number of characters that fell back to byte pieces.
func (e *Encoder) Fallbacks() int64 { return e.e.Fallbacks }

// Decode turns token ids into text. Padding, <s>, </s> and language tags are
// skipped; <unk> reads " ⁇ " as in SentencePiece. Decoding the pieces of
// Encode gives back the text exactly.
func (v *Vocab) Decode(ids []int32) string {
	off := int32(v.pieceOffset())
	var sb strings.Builder
	pieces := make([]int32, 0, len(ids))
	flush := func() {
		if len(pieces) > 0 {
			sb.WriteString(v.model.Decode(pieces))
			pieces = pieces[:0]
		}
	}
	for _, id := range ids {
		switch {
		case id >= off && int(id) < v.Size():
			pieces = append(pieces, id-off)
		case id == UNKID:
			flush()
			sb.WriteString(" ⁇ ")
		}
	}
	flush()
	return sb.String()
}

// Tokens returns the token texts of ids, for display.
func (v *Vocab) Tokens(ids []int32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = v.Token(id)
	}
	return out
}
