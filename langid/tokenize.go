package langid

import "strings"

// isSpace reports the bytes fastText's Dictionary::readWord treats as token
// separators. Only these ASCII bytes count; other Unicode spaces (such as
// U+00A0 or U+3000) stay inside tokens, as in fastText.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\n', '\r', '\t', '\v', '\f', 0:
		return true
	}
	return false
}

// features appends the input rows of one line to ids, as
// Dictionary::getLine does. line must not contain the terminating newline;
// eol says whether one followed it in the input (then fastText appends the
// EOS token "</s>"; a last line without newline gets none). Newlines inside
// line are treated as ordinary separators.
//
// Tokens of label type ("__label__..." whether in the vocabulary or not)
// contribute nothing. In-vocabulary words contribute their precomputed
// subwords, unknown words their character n-grams only; after the line,
// word n-grams over the token hashes are appended.
func (d *dictionary) features(s *scratch, line []byte, eol bool) []int32 {
	ids := s.ids[:0]
	hashes := s.hashes[:0]
	for i := 0; i < len(line); {
		if isSpace(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		ids, hashes = d.addToken(s, ids, hashes, line[i:j])
		i = j
	}
	if eol {
		ids, hashes = d.addToken(s, ids, hashes, []byte(eos))
	}
	if d.wordNgrams > 1 {
		ids = d.wordNgramIDs(ids, hashes)
	}
	s.ids, s.hashes = ids, hashes
	return ids
}

func (d *dictionary) addToken(s *scratch, ids, hashes []int32, tok []byte) ([]int32, []int32) {
	h := hashBytes(tok)
	wid, known := d.word2id[string(tok)]
	if known && d.types[wid] == typeLabel {
		return ids, hashes
	}
	if !known && strings.HasPrefix(string(tok), labelPrefix) {
		return ids, hashes
	}
	switch {
	case !known:
		if string(tok) != eos {
			s.buf = append(append(append(s.buf[:0], '<'), tok...), '>')
			ids = d.charNgrams(ids, s.buf)
		}
	case d.maxn <= 0:
		ids = append(ids, wid)
	default:
		ids = append(ids, d.subAll[d.subOff[wid]:d.subOff[wid+1]]...)
	}
	return ids, append(hashes, int32(h))
}
