package decode

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/model"
)

// Link aligns source word Src with target word Tgt (0-based, in the
// words of data.Vocab.WordIndex).
type Link struct{ Src, Tgt int }

// FormatLinks writes links as Pharaoh/Moses "s-t" pairs, space-separated
// (the format of fast_align and of Marian's --alignment hard).
func FormatLinks(links []Link) string {
	parts := make([]string, len(links))
	for i, l := range links {
		parts[i] = strconv.Itoa(l.Src) + "-" + strconv.Itoa(l.Tgt)
	}
	return strings.Join(parts, " ")
}

// AlignLayer resolves a decoder layer for alignment: layer ≥ 0 as given,
// otherwise the penultimate layer (the last one of a one-layer decoder).
// Decision (docs/decoding.md): the penultimate layer's encoder attention
// gives the best alignments of a Transformer not trained to align (Garg et
// al. 2019, "Jointly Learning to Align and Translate with Transformer
// Models"); the top layer attends for prediction, not alignment.
func AlignLayer(m model.Model, layer int) int {
	if layer >= 0 {
		return layer
	}
	return max(m.Config().DecoderLayers-2, 0)
}

// AlignWords aligns a translation to its source through the model's
// encoder attention in decoder layer layer (AlignLayer), averaged over the
// heads, with teacher forcing on the output: each target piece links to the
// source piece it attends to most (tags and </s> excluded), and words are
// linked when any of their pieces are. src is the encoder input, tgt the
// output after prefix, EOS last.
func AlignWords(m model.Model, v *data.Vocab, src, prefix, tgt []int32, layer int) ([]Link, error) {
	a, err := Attention(m, src, prefix, tgt, AttnCross, AlignLayer(m, layer))
	if err != nil {
		return nil, fmt.Errorf("alignment: %w", err)
	}
	return hardLinks(a.Mean(), v.WordIndex(src), v.WordIndex(tgt), len(prefix)-1), nil
}

// hardLinks links each target piece j (a word index ≥ 0 in tgtWord) to the
// source piece with the largest weight in row first+j of w (the query that
// predicted it), among pieces in a source word; word pairs are reported
// once, sorted by source then target word.
func hardLinks(w [][]float32, srcWord, tgtWord []int, first int) []Link {
	seen := map[Link]bool{}
	var links []Link
	for j, tw := range tgtWord {
		if tw < 0 {
			continue
		}
		row := w[first+j]
		best := -1
		for s, sw := range srcWord {
			if sw >= 0 && (best < 0 || row[s] > row[best]) {
				best = s
			}
		}
		if best < 0 {
			continue // a source of tags and </s> only
		}
		if l := (Link{srcWord[best], tw}); !seen[l] {
			seen[l] = true
			links = append(links, l)
		}
	}
	slices.SortFunc(links, func(a, b Link) int {
		if a.Src != b.Src {
			return a.Src - b.Src
		}
		return a.Tgt - b.Tgt
	})
	return links
}
