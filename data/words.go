package data

import (
	"strings"

	"github.com/strata-nmt/strata/subword"
)

// WordIndex maps token ids to the words of their decoded text: entry i is
// the 0-based index of the word token i belongs to, or -1 for tokens that
// belong to no word (padding, </s>, language tags, a marker standing for a
// space between spaces). Words are what Decode's text splits into at ASCII
// spaces, the only character the subword model turns into the ▁ marker: a
// piece starting with ▁ starts a word, and <unk> (decoded " ⁇ ") is a word
// of its own. Word alignments (translate --alignment) are reported in
// these indices.
func (v *Vocab) WordIndex(ids []int32) []int {
	out := make([]int, len(ids))
	group := make([]int, len(ids)) // the marker-delimited group of each piece
	content := []bool{}            // whether a group has non-space text
	cur := -1
	newGroup := func() { content = append(content, false); cur = len(content) - 1 }
	prevUnk := false
	for i, id := range ids {
		group[i] = -1
		switch {
		case id == UNKID:
			newGroup()
			content[cur] = true
			group[i] = cur
			prevUnk = true
			continue
		case int(id) < v.pieceOffset() || int(id) >= v.Size():
			continue
		}
		piece := v.Token(id)
		if cur < 0 || prevUnk || strings.HasPrefix(piece, subword.Marker) {
			newGroup()
		}
		prevUnk = false
		if strings.Trim(piece, subword.Marker) != "" {
			content[cur] = true
		}
		group[i] = cur
	}
	// number the groups with content: those are the words
	word := make([]int, len(content))
	n := 0
	for g, c := range content {
		word[g] = -1
		if c {
			word[g] = n
			n++
		}
	}
	for i, g := range group {
		out[i] = -1
		if g >= 0 {
			out[i] = word[g]
		}
	}
	return out
}
