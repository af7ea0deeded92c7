package markup

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// item is one piece of a run of inline content: text (its raw bytes) or
// a code, the tokens [from, to) written back as they are.
type item struct {
	raw      string // text
	code     bool
	from, to int
	line     int
	// pair is, for a code that opens an inline element, the index of
	// the item that closes it in the same run (and back); -1 otherwise.
	pair int
}

// segmenter cuts the tokens into pieces and units.
type segmenter struct {
	d   *Doc
	run []item
}

// segment walks the tokens: block markup is written as it is, and each
// run of inline content between block markup becomes sentences.
func (d *Doc) segment() {
	s := &segmenter{d: d}
	toks := d.toks
	for i := 0; i < len(toks); i++ {
		t := &toks[i]
		switch {
		case t.typ == html.TextToken:
			if i > 0 && toks[i-1].isStart() && rawText[toks[i-1].name] {
				s.flush()
				d.pieces = append(d.pieces, piece{raw: t.raw, unit: -1, from: -1})
				continue
			}
			s.run = append(s.run, item{raw: t.raw, pair: -1, line: t.line})
		case t.isTag() && skipsContent(t):
			end := matchingEnd(toks, i)
			if end < 0 {
				end = len(toks) - 1
			}
			if inline[t.name] {
				s.code(i, end+1)
			} else {
				s.flush()
				d.pieces = append(d.pieces, piece{unit: -1, from: i, to: end + 1})
			}
			i = end
		case t.isTag() && (inline[t.name] || inlineVoid[t.name]):
			d.attrUnits(i)
			s.code(i, i+1)
		default:
			s.flush()
			if t.isTag() {
				d.attrUnits(i)
			}
			d.pieces = append(d.pieces, piece{unit: -1, from: i, to: i + 1})
		}
	}
	s.flush()
}

func (s *segmenter) code(from, to int) {
	s.run = append(s.run, item{code: true, from: from, to: to, pair: -1, line: s.d.toks[from].line})
}

// flush turns the run into sentences.
func (s *segmenter) flush() {
	run := s.run
	s.run = nil
	if len(run) == 0 {
		return
	}
	pairCodes(s.d.toks, run)
	for _, sent := range splitSentences(run) {
		pairCodes(s.d.toks, sent)
		s.sentence(sent)
	}
}

// pairCodes links each inline end tag to the start tag it closes, when
// that is the innermost open one, so that pairs nest; other tags stay
// unpaired (stray end tags, elements the run leaves open).
func pairCodes(toks []token, run []item) {
	var open []int
	for i := range run {
		run[i].pair = -1
	}
	for i, it := range run {
		if !it.code || it.to-it.from != 1 {
			continue
		}
		t := &toks[it.from]
		switch {
		case t.typ == html.StartTagToken && !void[t.name]:
			open = append(open, i)
		case t.typ == html.EndTagToken:
			if n := len(open); n > 0 && toks[run[open[n-1]].from].name == t.name {
				run[i].pair, run[open[n-1]].pair = open[n-1], i
				open = open[:n-1]
			}
		}
	}
}

// sentence writes the blanks and the codes around a sentence as they are
// and makes a unit of the rest, when it has a letter.
func (s *segmenter) sentence(run []item) {
	var before, after []item
	for {
		run, before, after = trimBlanks(run, before, after)
		if len(run) == 0 {
			break
		}
		first, last := run[0], run[len(run)-1]
		switch {
		case first.code && first.pair < 0:
			before, run = append(before, first), unpairShift(run[1:])
		case last.code && last.pair < 0:
			after, run = append([]item{last}, after...), run[:len(run)-1]
		case first.code && first.pair == len(run)-1:
			before, after, run = append(before, first), append([]item{last}, after...), unpairShift(run[1:len(run)-1])
		default:
			s.emit(before)
			if hasLetter(run) {
				s.d.addUnit(run)
			} else {
				s.emit(run)
			}
			s.emit(after)
			return
		}
	}
	s.emit(before)
	s.emit(after)
}

// unpairShift renumbers the pairs of a run that lost its first item.
func unpairShift(run []item) []item {
	out := make([]item, len(run))
	for i, it := range run {
		if it.pair >= 0 {
			it.pair--
		}
		out[i] = it
	}
	return out
}

// trimBlanks moves a run's leading and trailing blanks to before and after.
func trimBlanks(run, before, after []item) ([]item, []item, []item) {
	if len(run) > 0 && !run[0].code {
		raw := run[0].raw
		trimmed := strings.TrimLeft(raw, " \t\n\r\f")
		if lead := raw[:len(raw)-len(trimmed)]; lead != "" {
			before = append(before, item{raw: lead, pair: -1, line: run[0].line})
		}
		if trimmed == "" {
			return trimBlanks(unpairShift(run[1:]), before, after)
		}
		run = append([]item{{raw: trimmed, pair: -1, line: run[0].line}}, run[1:]...)
	}
	if n := len(run); n > 0 && !run[n-1].code {
		raw := run[n-1].raw
		trimmed := strings.TrimRight(raw, " \t\n\r\f")
		if trail := raw[len(trimmed):]; trail != "" {
			after = append([]item{{raw: trail, pair: -1}}, after...)
		}
		run = append(run[:n-1:n-1], item{raw: trimmed, pair: -1, line: run[n-1].line})
		if trimmed == "" {
			run = run[:n-1]
		}
	}
	return run, before, after
}

func (s *segmenter) emit(items []item) {
	for _, it := range items {
		if it.code {
			s.d.pieces = append(s.d.pieces, piece{unit: -1, from: it.from, to: it.to})
		} else {
			s.d.pieces = append(s.d.pieces, piece{raw: it.raw, unit: -1, from: -1})
		}
	}
}

// hasLetter says whether the text of a run holds a letter.
func hasLetter(run []item) bool {
	for _, it := range run {
		if !it.code && strings.IndexFunc(html.UnescapeString(it.raw), unicode.IsLetter) >= 0 {
			return true
		}
	}
	return false
}
