package data

import "fmt"

// TagScheme says where language tags go (Wu et al. 2021, "Language tags
// matter for zero-shot NMT"; the schemes of the LayerNorm zero-shot study).
type TagScheme string

const (
	// TagNone adds no tag (bilingual models).
	TagNone TagScheme = "none"
	// TagTENC prepends the target-language tag to the encoder input.
	TagTENC TagScheme = "T-ENC"
	// TagSENCTDEC prepends the source-language tag to the encoder input and
	// makes the target-language tag the first decoder input after
	// DecoderStart; at inference the decoder is forced to start with
	// DecoderPrefix.
	TagSENCTDEC TagScheme = "S-ENC-T-DEC"
)

// ParseTagScheme reads a scheme name as written in configs.
func ParseTagScheme(s string) (TagScheme, error) {
	switch TagScheme(s) {
	case "", TagNone:
		return TagNone, nil
	case TagTENC, TagSENCTDEC:
		return TagScheme(s), nil
	}
	return "", fmt.Errorf("tag scheme %q: want %q, %q or %q", s, TagNone, TagTENC, TagSENCTDEC)
}

// Sequencer builds the model's sequences from token ids (pieces only) under
// a tag scheme. With sentence x1..xm in language s and y1..yn in language t:
//
//	scheme        encoder input        decoder input           decoder output
//	none          x1..xm </s>          </s> y1..yn             y1..yn </s>
//	T-ENC         <2t> x1..xm </s>     </s> y1..yn             y1..yn </s>
//	S-ENC-T-DEC   <2s> x1..xm </s>     </s> <2t> y1..yn        <pad> y1..yn </s>
//
// With S-ENC-T-DEC the target tag is forced at inference, so by default it is
// not a prediction target: the decoder output holds <pad> (ignored by the
// loss and by NTokens) where the input holds </s>. TagInLoss puts <2t> there
// instead, as fairseq's --decoder-langtok does.
//
// Start replaces </s> as the first decoder input when set (BOSID for <s>, as
// some toolkits do); 0 means DecoderStart.
type Sequencer struct {
	Scheme    TagScheme
	TagInLoss bool
	Vocab     *Vocab
	Start     int32
}

// start is the first decoder input.
func (s Sequencer) start() int32 {
	if s.Start == 0 {
		return DecoderStart
	}
	return s.Start
}

// tags returns the tag ids of the two languages (-1 when unused or unknown).
func (s Sequencer) tags(srcLang, tgtLang string) (src, tgt int32, err error) {
	src, tgt = -1, -1
	switch s.Scheme {
	case TagTENC:
		tgt, err = s.tag(tgtLang)
	case TagSENCTDEC:
		if src, err = s.tag(srcLang); err == nil {
			tgt, err = s.tag(tgtLang)
		}
	}
	return src, tgt, err
}

func (s Sequencer) tag(lang string) (int32, error) {
	id, ok := s.Vocab.TagID(lang)
	if !ok {
		return -1, fmt.Errorf("language %q has no tag in the vocabulary (languages %v)", lang, s.Vocab.Languages())
	}
	return id, nil
}

// EncoderInput appends the encoder input of src to dst.
func (s Sequencer) EncoderInput(dst, src []int32, srcLang, tgtLang string) ([]int32, error) {
	st, tt, err := s.tags(srcLang, tgtLang)
	if err != nil {
		return dst, err
	}
	return s.encoderInput(dst, src, st, tt), nil
}

func (s Sequencer) encoderInput(dst, src []int32, srcTag, tgtTag int32) []int32 {
	switch s.Scheme {
	case TagTENC:
		dst = append(dst, tgtTag)
	case TagSENCTDEC:
		dst = append(dst, srcTag)
	}
	dst = append(dst, src...)
	return append(dst, EOSID)
}

// DecoderPrefix is the forced start of the decoder input at inference:
// </s>, then <2t> with S-ENC-T-DEC. Generation predicts the tokens after it.
func (s Sequencer) DecoderPrefix(tgtLang string) ([]int32, error) {
	tt := int32(-1)
	if s.Scheme == TagSENCTDEC {
		var err error
		if tt, err = s.tag(tgtLang); err != nil {
			return nil, err
		}
	}
	return s.decoderPrefix(nil, tt), nil
}

func (s Sequencer) decoderPrefix(dst []int32, tgtTag int32) []int32 {
	dst = append(dst, s.start())
	if s.Scheme == TagSENCTDEC {
		dst = append(dst, tgtTag)
	}
	return dst
}

// Decoder appends the decoder input and output of tgt to in and out; both
// have the same length.
func (s Sequencer) Decoder(in, out, tgt []int32, tgtLang string) ([]int32, []int32, error) {
	tt := int32(-1)
	if s.Scheme == TagSENCTDEC {
		var err error
		if tt, err = s.tag(tgtLang); err != nil {
			return in, out, err
		}
	}
	in, out = s.decoder(in, out, tgt, tt)
	return in, out, nil
}

func (s Sequencer) decoder(in, out, tgt []int32, tgtTag int32) ([]int32, []int32) {
	in = s.decoderPrefix(in, tgtTag)
	in = append(in, tgt...)
	if s.Scheme == TagSENCTDEC {
		if s.TagInLoss {
			out = append(out, tgtTag)
		} else {
			out = append(out, PadID)
		}
	}
	out = append(out, tgt...)
	return in, append(out, EOSID)
}

// extraSrc and extraTgt are the tokens a scheme adds around the pieces.
func (s Sequencer) extraSrc() int {
	if s.Scheme == TagNone {
		return 1
	}
	return 2
}

func (s Sequencer) extraTgt() int {
	if s.Scheme == TagSENCTDEC {
		return 2
	}
	return 1
}
