package data

import (
	"fmt"

	"golang.org/x/text/language"
)

// checkLangCode accepts a lower-case ISO 639 code that CLDR knows (de, zh,
// ast, ...): tags are spelled from it, so "DE" or "german" would make tags
// that no other tool reads the same way.
func checkLangCode(code string) error {
	b, err := language.ParseBase(code)
	if err != nil || b.String() != code {
		return fmt.Errorf("unknown language code %q: want a lower-case ISO 639-1 code such as de or zh (or ISO 639-3 where no 639-1 code exists)", code)
	}
	return nil
}
