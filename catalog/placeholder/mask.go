package placeholder

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is one protected piece of a source string.
type Span struct {
	Text string // as in the source
	Kind Kind
	// Pair is, for an opening tag, the index of its closing tag in the
	// spans (and for a closing tag, of its opening tag); -1 otherwise.
	Pair int
}

// Masked is a string with its protected spans replaced by sentinels.
type Masked struct {
	// Text is what the model translates: span i is the sentinel {i+1}.
	Text  string
	Spans []Span
	// Accel is the accelerator key removed from the source (0: none), and
	// Marker its marker.
	Accel, Marker rune

	escape func(string) string // see NewBuilder
}

// Sentinel is the spelling of span i's sentinel.
func Sentinel(i int) string { return "{" + strconv.Itoa(i+1) + "}" }

// Mask protects the spans of s that o asks for.
func Mask(s string, o Options) Masked {
	m := Masked{Marker: o.Accelerator}
	accelAt := -1
	if o.Accelerator != 0 {
		accelAt = acceleratorAt(s, o)
	}
	var b strings.Builder
	var open []int // indices of open tags awaiting their closing tag
	for i := 0; i < len(s); {
		if i == accelAt {
			r, n := utf8.DecodeRuneInString(s[i+utf8.RuneLen(o.Accelerator):])
			m.Accel = r
			b.WriteString(s[i+utf8.RuneLen(o.Accelerator) : i+utf8.RuneLen(o.Accelerator)+n])
			i += utf8.RuneLen(o.Accelerator) + n
			continue
		}
		n, k := o.match(s[i:])
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		sp := Span{Text: s[i : i+n], Kind: k, Pair: -1}
		if k == Tag {
			open = pairTag(m.Spans, &sp, open, len(m.Spans))
		}
		b.WriteString(Sentinel(len(m.Spans)))
		m.Spans = append(m.Spans, sp)
		i += n
	}
	m.Text = b.String()
	return m
}

// pairTag links a closing tag to the innermost open tag of its name and
// returns the updated stack of open tags.
func pairTag(spans []Span, sp *Span, open []int, idx int) []int {
	name, isOpen, isClose := tagInfo(sp.Text)
	switch {
	case isOpen:
		return append(open, idx)
	case isClose:
		for j := len(open) - 1; j >= 0; j-- {
			if n, _, _ := tagInfo(spans[open[j]].Text); n == name {
				sp.Pair = open[j]
				spans[open[j]].Pair = idx
				return append(open[:j], open[j+1:]...)
			}
		}
	}
	return open
}

// acceleratorAt returns the byte offset of the accelerator marker in s, or
// -1. A marker counts when a letter or digit follows it and it is the only
// such marker in s: two (as in an identifier like max_line_len) mean the
// character is text, and a doubled marker is a literal one.
func acceleratorAt(s string, o Options) int {
	mk := string(o.Accelerator)
	at := -1
	for i := 0; i < len(s); {
		if n, _ := o.match(s[i:]); n > 0 {
			i += n // markers inside placeholders and entities are not accelerators
			continue
		}
		if !strings.HasPrefix(s[i:], mk) {
			i++
			continue
		}
		rest := s[i+len(mk):]
		if strings.HasPrefix(rest, mk) {
			i += 2 * len(mk)
			continue
		}
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if at >= 0 {
				return -1
			}
			at = i
		}
		i += len(mk)
	}
	return at
}

// Error says why a translation could not be unmasked.
type Error struct {
	Lost, Duplicated, Unknown []string // sentinels, or the source text of spans
	Misordered                []string // closing tags before their opening tag
	// Reordered lists argument-order placeholders (printf directives
	// without n$ or a (name), Python's {}) that changed places: each takes
	// the next argument, so moving one swaps what the program prints.
	Reordered []string
}

func (e *Error) Error() string {
	var parts []string
	add := func(what string, l []string) {
		if len(l) > 0 {
			parts = append(parts, what+" "+strings.Join(quoteAll(l), ", "))
		}
	}
	add("lost", e.Lost)
	add("duplicated", e.Duplicated)
	add("unknown", e.Unknown)
	add("closed before opened", e.Misordered)
	add("reordered", e.Reordered)
	return "placeholders " + strings.Join(parts, "; ")
}

func quoteAll(l []string) []string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return q
}

// Unmask restores the spans in a translation of m.Text. Every sentinel must
// occur exactly once and every closing tag after its opening tag;
// otherwise the error (an *Error) lists what went wrong in terms of the
// source's spans, and the translation must not be used.
func (m Masked) Unmask(out string) (string, error) {
	seen := make([]int, len(m.Spans))
	pos := make([]int, len(m.Spans))
	var e Error
	var b strings.Builder
	order := 0
	forEachSentinel(out, func(text string, idx int) {
		if idx < 0 {
			if m.escape != nil {
				text = m.escape(text)
			}
			b.WriteString(text)
			return
		}
		if idx >= len(m.Spans) {
			e.Unknown = append(e.Unknown, text)
			return
		}
		seen[idx]++
		pos[idx] = order
		order++
		b.WriteString(m.Spans[idx].Text)
	})
	for i, sp := range m.Spans {
		switch {
		case seen[i] == 0:
			e.Lost = append(e.Lost, sp.Text)
		case seen[i] > 1:
			e.Duplicated = append(e.Duplicated, sp.Text)
		case sp.Pair > i && seen[sp.Pair] == 1 && pos[sp.Pair] < pos[i]:
			e.Misordered = append(e.Misordered, m.Spans[sp.Pair].Text)
		}
	}
	if len(e.Lost)+len(e.Duplicated)+len(e.Unknown)+len(e.Misordered) == 0 {
		e.Reordered = m.reordered(pos)
	}
	if len(e.Lost)+len(e.Duplicated)+len(e.Unknown)+len(e.Misordered)+len(e.Reordered) > 0 {
		return "", &e
	}
	return m.restoreAccel(b.String()), nil
}

// reordered lists the argument-order spans whose output positions are not
// in source order.
func (m Masked) reordered(pos []int) []string {
	var out []string
	last := -1
	for i, sp := range m.Spans {
		if !takesNextArgument(sp) {
			continue
		}
		if pos[i] < last {
			out = append(out, sp.Text)
		}
		last = max(last, pos[i])
	}
	return out
}

// takesNextArgument says whether a span consumes the next argument in
// order: a printf directive without n$ or (name) (%% takes none), or an
// empty Python {}.
func takesNextArgument(sp Span) bool {
	switch sp.Kind {
	case Printf:
		return sp.Text != "%%" && !strings.ContainsAny(sp.Text, "$(") && !strings.HasPrefix(sp.Text, "%<")
	case Brace:
		return sp.Text == "{}"
	}
	return false
}

// forEachSentinel calls fn for each run of text (idx -1) and each sentinel
// {N} (idx N-1) of s, in order.
func forEachSentinel(s string, fn func(text string, idx int)) {
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(s) || s[j] != '}' || s[i+1] == '0' || j-i > 7 {
			continue
		}
		n, _ := strconv.Atoi(s[i+1 : j])
		if start < i {
			fn(s[start:i], -1)
		}
		fn(s[i:j+1], n-1)
		start, i = j+1, j
	}
	if start < len(s) {
		fn(s[start:], -1)
	}
}

// restoreAccel puts the accelerator marker into a translation (spans
// restored already): before the key letter where a word starts with it,
// else before its first occurrence, else before the first letter.
func (m Masked) restoreAccel(s string) string {
	if m.Accel == 0 {
		return s
	}
	protected := m.protectedRanges(s)
	best, any, first := -1, -1, -1
	prev := ' '
	for i, r := range s {
		if inRanges(protected, i) {
			prev = r
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if first < 0 {
				first = i
			}
			if unicode.ToLower(r) == unicode.ToLower(m.Accel) {
				if any < 0 {
					any = i
				}
				if best < 0 && !unicode.IsLetter(prev) && !unicode.IsDigit(prev) {
					best = i
				}
			}
		}
		prev = r
	}
	at := best
	if at < 0 {
		at = any
	}
	if at < 0 {
		at = first
	}
	if at < 0 {
		return string(m.Marker) + s
	}
	return s[:at] + string(m.Marker) + s[at:]
}

// protectedRanges finds the spans' texts in s (restored), so that the
// marker never lands inside a placeholder.
func (m Masked) protectedRanges(s string) [][2]int {
	var r [][2]int
	for i := 0; i < len(s); {
		if n, _ := (Options{}).match(s[i:]); n > 0 {
			r = append(r, [2]int{i, i + n})
			i += n
			continue
		}
		i++
	}
	return r
}

func inRanges(r [][2]int, i int) bool {
	for _, x := range r {
		if i >= x[0] && i < x[1] {
			return true
		}
	}
	return false
}

// Check compares the placeholders of a source string and its translation
// as multisets (accelerators aside): a translation written by a person or
// restored by Unmask must hold each of the source's placeholders as often
// as the source does. It returns nil or an *Error.
func Check(src, tgt string, o Options) error {
	count := func(s string) map[string]int {
		c := map[string]int{}
		for i := 0; i < len(s); {
			if n, _ := o.match(s[i:]); n > 0 {
				c[s[i:i+n]]++
				i += n
				continue
			}
			i++
		}
		return c
	}
	a, b := count(src), count(tgt)
	var e Error
	for k, n := range a {
		switch {
		case b[k] < n:
			e.Lost = append(e.Lost, k)
		case b[k] > n:
			e.Duplicated = append(e.Duplicated, k)
		}
	}
	for k := range b {
		if a[k] == 0 {
			e.Unknown = append(e.Unknown, k)
		}
	}
	if len(e.Lost)+len(e.Duplicated)+len(e.Unknown) == 0 {
		return nil
	}
	sortAll(&e)
	return &e
}

// sortAll orders the lists, so that messages are stable.
func sortAll(e *Error) {
	for _, l := range [][]string{e.Lost, e.Duplicated, e.Unknown} {
		slices.Sort(l)
	}
}

// String shows the masked text and its spans, for messages and tests.
func (m Masked) String() string {
	var b strings.Builder
	b.WriteString(strconv.Quote(m.Text))
	for i, sp := range m.Spans {
		fmt.Fprintf(&b, " %s=%q", Sentinel(i), sp.Text)
	}
	return b.String()
}
