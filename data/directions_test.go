package data

import (
	"strings"
	"testing"
)

func TestTrainDirectionsAllowSeenAndZeroShotOnly(t *testing.T) {
	m := &Manifest{Splits: map[string][]PartInfo{
		"train": {{SrcLang: "en", TgtLang: "de"}, {SrcLang: "de", TgtLang: "en"}, {SrcLang: "en", TgtLang: "fr"}, {SrcLang: "fr", TgtLang: "en"}},
		"test":  {{SrcLang: "de", TgtLang: "fr"}},
	}}
	d := m.TrainDirections("train")
	if got := strings.Join(d.Strings(), ","); got != "de-en,en-de,en-fr,fr-en" {
		t.Fatalf("directions %s", got)
	}
	for _, c := range []struct {
		src, tgt string
		seen, ok bool
	}{{"en", "de", true, true}, {"de", "fr", false, true}, {"fr", "de", false, true}, {"en", "it", false, false}, {"it", "en", false, false}} {
		if d.Seen(c.src, c.tgt) != c.seen || d.Allows(c.src, c.tgt) != c.ok {
			t.Errorf("%s-%s: seen %v allowed %v, want %v %v", c.src, c.tgt, d.Seen(c.src, c.tgt), d.Allows(c.src, c.tgt), c.seen, c.ok)
		}
	}
}

func TestBilingualDirectionsRefuseTheReverseAndCopying(t *testing.T) {
	d, err := ParseDirections([]string{"en-de"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{{"de", "en"}, {"en", "en"}, {"de", "de"}} {
		err := d.Check(c[0], c[1])
		if err == nil || !strings.Contains(err.Error(), "en→de") {
			t.Errorf("%s→%s: %v, want a refusal naming en→de", c[0], c[1], err)
		}
	}
	if err := d.Check("en", "de"); err != nil {
		t.Error(err)
	}
	if err := d.Check("", ""); err != nil {
		t.Errorf("no languages given: %v", err)
	}
}

func TestUnknownDirectionsAllowEverything(t *testing.T) {
	var d Directions
	if d.Known() || !d.Allows("de", "en") {
		t.Fatal("unknown directions must allow every direction")
	}
	m := &Manifest{Splits: map[string][]PartInfo{"test": {{SrcLang: "en", TgtLang: "de"}}}}
	if m.TrainDirections("train").Known() {
		t.Fatal("a manifest without a train split has unknown directions")
	}
	if _, err := ParseDirections([]string{"ende"}); err == nil {
		t.Fatal("accepted a direction without a dash")
	}
}
