package decode

import (
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// A model trained en→de only is refused de→en and en→en, in the
// up-front check and in translation itself, naming its directions; a
// multilingual model's zero-shot directions stay allowed.
func TestTranslatorRefusesUntrainedDirections(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	b.Directions, _ = data.ParseDirections([]string{"en-de"})
	tr := testTranslator(t, b, testOptions(2))
	for _, d := range [][2]string{{"de", "en"}, {"en", "en"}, {"fr", "de"}} {
		if err := tr.CheckDirection(d[0], d[1], ""); err == nil || !strings.Contains(err.Error(), "en→de") {
			t.Errorf("check %s→%s: %v, want a refusal naming en→de", d[0], d[1], err)
		}
		if _, err := tr.Lines([]string{"a"}, d[0], d[1], ""); err == nil || !strings.Contains(err.Error(), "en→de") {
			t.Errorf("translate %s→%s: %v, want a refusal naming en→de", d[0], d[1], err)
		}
	}
	if _, err := tr.Lines([]string{"a"}, "en", "de", ""); err != nil {
		t.Error(err)
	}
	b.Directions, _ = data.ParseDirections([]string{"en-de", "de-en", "en-fr", "fr-en"})
	if err := tr.CheckDirection("de", "fr", ""); err != nil {
		t.Errorf("zero-shot de→fr: %v", err)
	}
	if err := tr.CheckDirection("de", "fr", "en"); err != nil {
		t.Errorf("de→en→fr: %v", err)
	}
}

func TestPivotNeedsAThirdLanguageAndBothEnds(t *testing.T) {
	tr := testTranslator(t, testBundle(t, data.TagSENCTDEC), testOptions(2))
	for _, c := range []struct{ src, tgt, pivot, want string }{
		{"en", "de", "de", "a pivot is a third language"},
		{"de", "fr", "de", "a pivot is a third language"},
		{"", "fr", "en", "needs both a source and a target language (--src-lang"},
		{"de", "", "en", "needs both a source and a target language"},
	} {
		err := tr.CheckDirection(c.src, c.tgt, c.pivot)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q→%q through %q: %v, want %q", c.src, c.tgt, c.pivot, err, c.want)
		}
	}
}
