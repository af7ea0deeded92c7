package mo

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

// converter returns a function converting strings from charset to UTF-8.
// An empty charset, "CHARSET" (the placeholder of an unfilled template),
// UTF-8 and ASCII need no conversion but are checked; others are decoded
// with the WHATWG encodings of golang.org/x/text.
func converter(charset string) (func(string) (string, error), error) {
	switch strings.ToLower(charset) {
	case "", "charset", "utf-8", "utf8", "ascii", "us-ascii", "ansi_x3.4-1968":
		return checkUTF8, nil
	}
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, fmt.Errorf("header declares charset %q, which is not supported: %v", charset, err)
	}
	dec := enc.NewDecoder()
	return func(s string) (string, error) {
		out, err := dec.String(s)
		if err != nil {
			return "", fmt.Errorf("not valid %s: %v", charset, err)
		}
		return out, nil
	}, nil
}

func checkUTF8(s string) (string, error) {
	if !utf8.ValidString(s) {
		for i, r := range s {
			if r == utf8.RuneError {
				if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
					return "", fmt.Errorf("%w at byte %d of %q", ErrNotUTF8, i, truncate(s, 40))
				}
			}
		}
	}
	return s, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
