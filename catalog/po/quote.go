package po

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unquoteAll decodes the quoted strings of a line's rest, which may hold
// several separated by blanks (gettext's lexer reads them as one).
func unquoteAll(s string) (string, error) {
	var b strings.Builder
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimLeft(s, " \t") {
		end := closingQuote(s)
		if end < 0 {
			return "", fmt.Errorf("want a string in double quotes, got %q", s)
		}
		v, err := unquote(s[:end+1])
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		s = s[end+1:]
	}
	return b.String(), nil
}

// closingQuote returns the index of the quote that closes the string at
// s[0], or -1.
func closingQuote(s string) int {
	if s == "" || s[0] != '"' {
		return -1
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unquote decodes one quoted PO string with C escapes (gettext accepts
// \a \b \f \n \r \t \v \\ \" \? \' , octal \NNN and hex \xHH).
func unquote(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Errorf("want a string in double quotes, got %q", s)
	}
	s = s[1 : len(s)-1]
	if !strings.ContainsAny(s, `\"`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			return "", fmt.Errorf("unescaped \" inside a string")
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", fmt.Errorf("string ends in a backslash")
		}
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '"', '?', '\'':
			b.WriteByte(c)
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				return "", fmt.Errorf(`\x without hex digits`)
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			if v > 255 {
				return "", fmt.Errorf(`octal escape \%s is over 255`, s[i:j])
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			return "", fmt.Errorf(`unknown escape \%c`, c)
		}
	}
	return b.String(), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// escape writes s in PO quoting (without the quotes), as msgcat does.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

// wrapWidth is gettext's default page width.
const wrapWidth = 79

// formatField writes `kw "value"` as gettext does: on one line when it fits
// and holds no inner line break, else as kw "" followed by one quoted line
// per \n-terminated piece, each wrapped at spaces to the page width.
func formatField(prefix, kw, value string) string {
	one := prefix + kw + ` "` + escape(value) + `"`
	inner := strings.TrimSuffix(value, "\n")
	if utf8.RuneCountInString(one) <= wrapWidth && !strings.Contains(inner, "\n") {
		return one + "\n"
	}
	var b strings.Builder
	b.WriteString(prefix + kw + ` ""` + "\n")
	for _, piece := range splitAfterNewlines(value) {
		for _, l := range wrap(escape(piece), wrapWidth-len(prefix)-2) {
			b.WriteString(prefix + `"` + l + `"` + "\n")
		}
	}
	return b.String()
}

func splitAfterNewlines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// wrap cuts an escaped line after spaces so that each piece has at most
// width characters where possible (a word longer than width stays whole).
func wrap(s string, width int) []string {
	var out []string
	for utf8.RuneCountInString(s) > width {
		cut := -1
		n := 0
		for i, r := range s {
			if n >= width {
				break
			}
			n++
			if r == ' ' {
				cut = i + 1
			}
		}
		if s[cut:] == `\n` { // msgcat keeps a final \n with the word before it
			cut = strings.LastIndexByte(s[:cut-1], ' ') + 1
		}
		if cut <= 0 || cut >= len(s) {
			break
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}
