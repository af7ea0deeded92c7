package data

import (
	"slices"
	"strings"
	"testing"
)

func TestVocabLayout(t *testing.T) {
	v := testVocab(t, TagAngle)
	want := []string{"<pad>", "<s>", "</s>", "<unk>", "<2en>", "<2de>", "<2fr>", "<0x00>"}
	for id, tok := range want {
		if got := v.Token(int32(id)); got != tok {
			t.Errorf("token %d = %q, want %q", id, got, tok)
		}
		if back, ok := v.TokenID(tok); !ok || back != int32(id) {
			t.Errorf("TokenID(%q) = %d, %v", tok, back, ok)
		}
	}
	if id, ok := v.TagID("de"); !ok || id != 5 {
		t.Errorf("TagID(de) = %d, %v", id, ok)
	}
	if _, ok := v.TagID("ru"); ok {
		t.Error("TagID(ru) found")
	}
	if v.Size() != 4+3+v.Model().NumPieces() {
		t.Errorf("size %d", v.Size())
	}
	f := testVocab(t, TagFairseq)
	if f.Token(5) != "__de__" {
		t.Errorf("fairseq tag %q", f.Token(5))
	}
	ids := v.Encode("en", "hello  world 🐈")
	for _, id := range ids {
		if id < 7 {
			t.Fatalf("Encode produced special or tag id %d", id)
		}
	}
	withSpecials := append([]int32{DecoderStart, 5}, ids...)
	withSpecials = append(withSpecials, EOSID, PadID, PadID)
	if got := v.Decode(withSpecials); got != "hello  world 🐈" {
		t.Errorf("Decode = %q", got)
	}
}

// TestSequences shows the exact sequences of each tag scheme, en→de.
func TestSequences(t *testing.T) {
	v := testVocab(t, TagAngle)
	src, tgt := v.Encode("en", "hello world"), v.Encode("de", "hallo Welt")
	show := func(ids []int32) string { return strings.Join(v.Tokens(ids), " ") }
	if show(src) != "▁hello ▁world" || show(tgt) != "▁hallo ▁Welt" {
		t.Fatalf("pieces %q %q", show(src), show(tgt))
	}
	cases := []struct {
		scheme       TagScheme
		tagInLoss    bool
		enc, in, out string
		prefix       string
	}{
		{TagNone, false, "▁hello ▁world </s>", "</s> ▁hallo ▁Welt", "▁hallo ▁Welt </s>", "</s>"},
		{TagTENC, false, "<2de> ▁hello ▁world </s>", "</s> ▁hallo ▁Welt", "▁hallo ▁Welt </s>", "</s>"},
		{TagSENCTDEC, false, "<2en> ▁hello ▁world </s>", "</s> <2de> ▁hallo ▁Welt", "<pad> ▁hallo ▁Welt </s>", "</s> <2de>"},
		{TagSENCTDEC, true, "<2en> ▁hello ▁world </s>", "</s> <2de> ▁hallo ▁Welt", "<2de> ▁hallo ▁Welt </s>", "</s> <2de>"},
	}
	for _, c := range cases {
		s := Sequencer{Scheme: c.scheme, TagInLoss: c.tagInLoss, Vocab: v}
		enc, err := s.EncoderInput(nil, src, "en", "de")
		if err != nil {
			t.Fatal(err)
		}
		in, out, err := s.Decoder(nil, nil, tgt, "de")
		if err != nil {
			t.Fatal(err)
		}
		prefix, _ := s.DecoderPrefix("de")
		if show(enc) != c.enc || show(in) != c.in || show(out) != c.out || show(prefix) != c.prefix {
			t.Errorf("%s (tag in loss %v):\n enc %q\n in  %q\n out %q\n prefix %q", c.scheme, c.tagInLoss, show(enc), show(in), show(out), show(prefix))
		}
		if len(in) != len(out) || len(enc) != len(src)+s.extraSrc() || len(in) != len(tgt)+s.extraTgt() {
			t.Errorf("%s: lengths enc %d in %d out %d", c.scheme, len(enc), len(in), len(out))
		}
		// Teacher forcing: the prediction at step k is the input at k+1.
		if !slices.Equal(in[2:], out[1:len(out)-1]) && c.scheme == TagSENCTDEC {
			t.Errorf("%s: output is not the input shifted", c.scheme)
		}
	}
	s := Sequencer{Scheme: TagSENCTDEC, Vocab: v, Start: BOSID}
	if p, _ := s.DecoderPrefix("de"); show(p) != "<s> <2de>" {
		t.Errorf("prefix with <s> start: %q", show(p))
	}
	if _, err := s.EncoderInput(nil, src, "en", "ru"); err == nil {
		t.Error("unknown target language accepted")
	}
	if _, err := ParseTagScheme("S-ENC"); err == nil {
		t.Error("bad scheme accepted")
	}
}
