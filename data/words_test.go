package data

import (
	"slices"
	"strings"
	"testing"
)

// WordIndex groups the pieces of an encoded line into the line's words:
// decoding each word's pieces gives back the space-separated words, with
// runs of spaces, leading and trailing spaces, unseen characters (byte
// fallback) and tags around them.
func TestWordIndexGivesTheWordsOfTheText(t *testing.T) {
	v := testVocab(t, TagAngle)
	tag, _ := v.TagID("de")
	for _, line := range []string{"hello world", "  hallo   Welt ", "bonjourmonde hello", "héllo wörld ☃ x", "a"} {
		ids := append([]int32{tag}, v.Encode("", line)...)
		ids = append(ids, EOSID)
		idx := v.WordIndex(ids)
		want := strings.Fields(line)
		got := make([][]int32, len(want))
		for i, w := range idx {
			if w >= len(want) {
				t.Fatalf("%q: token %d in word %d of %d", line, i, w, len(want))
			}
			if w >= 0 {
				got[w] = append(got[w], ids[i])
			}
		}
		for w, pieces := range got {
			if s := strings.TrimSpace(v.Decode(pieces)); s != want[w] {
				t.Errorf("%q: word %d decodes to %q, want %q (indices %v)", line, w, s, want[w], idx)
			}
		}
		if idx[0] != -1 || idx[len(idx)-1] != -1 {
			t.Errorf("%q: the tag or </s> is in a word: %v", line, idx)
		}
	}
	// <unk> is a word of its own, as Decode prints it " ⁇ "
	hello := v.Encode("", "hello")
	ids := append(append(slices.Clone(hello), UNKID), hello...)
	idx := v.WordIndex(ids)
	if idx[len(hello)] != 1 || idx[len(ids)-1] != 2 {
		t.Errorf("hello<unk>hello: word indices %v, want the unk as word 1 and the second hello as word 2", idx)
	}
}
