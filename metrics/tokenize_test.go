package metrics

import (
	"strings"
	"testing"
)

// Hand-derived from the rules of SacreBLEU's tokenizers (each case notes
// the rule it exercises).
func TestTokenizers(t *testing.T) {
	cases := []struct{ tok, in, want string }{
		{"13a", "Hello, world!", "Hello , world !"},
		{"13a", "Pi is 3.14 and 1,000 is big.", "Pi is 3.14 and 1,000 is big ."}, // digits keep . and ,
		{"13a", "2019.", "2019 ."},                                               // padding exposes the final period
		{"13a", "pages 1-2", "pages 1 - 2"},                                      // dash after a digit
		{"13a", "well-known", "well-known"},                                      // other dashes stay
		{"13a", "&quot;x&quot; &amp; &lt;y&gt;", `" x " & < y >`},                // entity unescaping
		{"13a", "&amp;quot;", "& quot ;"},                                        // replacements run in order
		{"13a", "a<skipped>b", "ab"},
		{"13a", "  many   spaces\t", "many spaces"},
		{"13a", "x\u00a0y\u001fz", "x y z"},          // Python whitespace
		{"intl", "The year 2019.", "The year 2019."}, // mteval-v14 quirk: no padding
		{"intl", "Hello, world!", "Hello , world !"},
		{"intl", "$5 costs 3.14€", "$ 5 costs 3.14 €"},
		{"intl", "«Bonjour» dit-il", "« Bonjour » dit - il"},
		{"zh", "我爱北京。", "我 爱 北 京 。"},
		{"zh", "“quote”", "“ quote ”"},         // U+201C/D fall in sacreBLEU's U+2001..U+2A6D range
		{"zh", "€5", "€ 5"},                    // so does the euro sign
		{"zh", "a𠀀b", "a𠀀b"},                   // CJK Extension B does not (the \u20000 quirk)
		{"zh", "a\U0002f800b", "a\U0002f800b"}, // nor the CJK Compatibility Supplement
		{"zh", "&quot;", "& quot ;"},           // no entity unescaping
		{"zh", " 2019. ", "2019."},             // stripped, not padded
		{"char", "ab c", "a b c"},
		{"char", "北京 ok", "北 京 o k"},
		{"none", " a  b ", " a  b "},
	}
	for _, c := range cases {
		tok, err := NewTokenizer(c.tok)
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Tokenize(c.in); got != c.want {
			t.Errorf("%s(%q) = %q, want %q", c.tok, c.in, got, c.want)
		}
	}
	if _, err := NewTokenizer("ja-mecab"); err == nil || !strings.Contains(err.Error(), "13a") {
		t.Errorf("unknown tokenizer error: %v", err)
	}
}

func TestPyLower(t *testing.T) {
	cases := map[string]string{
		"ABC":      "abc",
		"İstanbul": "i\u0307stanbul",
		"ΟΔΥΣΣΕΥΣ": "οδυσσευς",
		"ΣΑΣ ΣΑΣ.": "σας σας.",
		"Σ":        "σ", // nothing cased before it
		"AΣ'B":     "aσ'b",
		"AΣ'":      "aς'",
		"ÀÉÎ":      "àéî",
		"Straße":   "straße",
		"\u212a":   "k", // Kelvin sign
	}
	for in, want := range cases {
		if got := pyLower(in); got != want {
			t.Errorf("pyLower(%q) = %q, want %q", in, got, want)
		}
	}
}

// SacreBLEU's 13a, intl and zh tokenizers are not idempotent: a period
// that had a non-digit before it and a digit after it is split only once a
// space has been put in front of it.
func TestTokenizersNotIdempotent(t *testing.T) {
	for _, name := range []string{"13a", "intl", "zh"} {
		tok, _ := NewTokenizer(name)
		once := tok.Tokenize("A..0000")
		if twice := tok.Tokenize(once); once != "A . .0000" || twice != "A . . 0000" {
			t.Errorf("%s: %q then %q", name, once, twice)
		}
	}
}

// Fuzz each tokenizer: no panic, single-spaced output, idempotent where
// SacreBLEU's tokenizer is (char, none), and elsewhere a second pass only
// splits tokens further, never merges or changes characters.
func FuzzTokenizers(f *testing.F) {
	for _, s := range []string{"Hello, world!", "3.14-2", "&amp;quot;", "我爱北京。", "a..b,,c", "“x”", "(1.5).", "ΣΑΣ", "\u00a0x\u001c", "A..0000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r") || !utf8Valid(s) {
			t.Skip() // segments are single valid UTF-8 lines
		}
		for _, name := range TokenizerNames() {
			tok, _ := NewTokenizer(name)
			once := tok.Tokenize(s)
			twice := tok.Tokenize(once)
			if name == TokNone || name == TokChar {
				if once != twice {
					t.Fatalf("%s not idempotent on %q: %q then %q", name, s, once, twice)
				}
				continue
			}
			if once != strings.Join(pyFields(once), " ") {
				t.Fatalf("%s(%q) = %q is not single-spaced", name, s, once)
			}
			if !refines(pyFields(twice), pyFields(once)) {
				t.Fatalf("%s second pass does not refine on %q: %q then %q", name, s, once, twice)
			}
		}
	})
}

// refines reports whether fine splits each token of coarse into pieces.
func refines(fine, coarse []string) bool {
	i := 0
	for _, c := range coarse {
		acc := ""
		for acc != c {
			if i == len(fine) || !strings.HasPrefix(c, acc+fine[i]) {
				return false
			}
			acc += fine[i]
			i++
		}
	}
	return i == len(fine)
}
