package data

import "testing"

func TestLangCodes(t *testing.T) {
	for _, ok := range []string{"en", "de", "zh", "ar", "ro", "ast"} {
		if err := checkLangCode(ok); err != nil {
			t.Errorf("%s rejected: %v", ok, err)
		}
	}
	// deu has the 639-1 code de, so it is not canonical.
	for _, bad := range []string{"", "DE", "xx", "german", "de-DE", "deu", "e"} {
		if err := checkLangCode(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
