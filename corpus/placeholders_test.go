package corpus

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

func TestMaskCandidates(t *testing.T) {
	r := &PlaceholderReport{Dropped: map[string]int{}}
	held := map[string]bool{Key("Delete %s now"): true}
	got := maskCandidates("de", []Pair{
		{En: "Copy %s to %s", Tgt: "%s nach %s kopieren"},
		{En: "Copy %s to %s", Tgt: "%s nach %s kopieren"},             // duplicate
		{En: "Open <b>%d</b> files", Tgt: "<b>%d</b> Dateien öffnen"}, // tags and printf
		{En: "%.250s is %s.", Tgt: "%.250s ist %."},                   // a lost placeholder
		{En: "%s of %d", Tgt: "%d von %s"},                            // swapped arguments
		{En: "Copy %s to @DIR@", Tgt: "%s nach @DIR@ kopieren"},       // @VAR@ is not masked
		{En: "%s: %s", Tgt: "%s: %s"},                                 // no text
		{En: "Delete %s now", Tgt: "%s jetzt löschen"},                // held out
		{En: "Save %s", Tgt: "Save %s"},                               // identical
	}, held, map[string]bool{}, r)
	want := []string{"{1} nach {2} kopieren", "{1}{2}{3} Dateien öffnen"}
	if len(got) != len(want) {
		t.Fatalf("kept %v; report %v", got, r.Dropped)
	}
	for i, p := range got {
		if p.mTgt != want[i] {
			t.Errorf("pair %d masked %q, want %q", i, p.mTgt, want[i])
		}
	}
	for reason, n := range map[string]int{"duplicate": 1, DropMismatch: 2, DropUnprotected: 1, DropNoText: 1, "held out": 1, DropIdentical: 1} {
		if r.Dropped[reason] != n {
			t.Errorf("dropped %q: %d, want %d (%v)", reason, r.Dropped[reason], n, r.Dropped)
		}
	}
}

// TestBuildPlaceholderSet: the pairs the cleaning rules drop for
// placeholders become masked training, dev and test pairs, and no held-out
// string is in training.
func TestBuildPlaceholderSet(t *testing.T) {
	src := fakeArchive()
	var kv []string
	for i := 0; i < 40; i++ {
		kv = append(kv, fmt.Sprintf("Remove %%s from list number %d", i), fmt.Sprintf("%%s aus Liste Nummer %d entfernen", i))
	}
	src.pkgs["tool"] = map[string][]byte{"usr/share/locale/de/LC_MESSAGES/tool.mo": moFile(kv...)}
	out := t.TempDir()
	m, err := Build(context.Background(), Options{Langs: []string{"de"}, Output: out, Source: src, HeldOutSize: 5,
		Packages: []string{"app", "app-help", "tool"}})
	if err != nil {
		t.Fatal(err)
	}
	r := m.Report[0].Placeholders
	// 41 candidates: the 40 above and "Copy %s here"; a tenth of the
	// masked English strings each for dev and test
	if r == nil || r.Candidates != 41 || r.Dev != 4 || r.Test != 4 || r.Train != 33 {
		t.Fatalf("placeholder report %+v", r)
	}
	train := readGz(t, filepath.Join(out, "placeholders", "train", "en-de.tsv.gz"))
	dev := readLines(t, filepath.Join(out, "placeholders", "dev", "en-de.tsv"))
	testEn := readLines(t, filepath.Join(out, "placeholders", "test", "en-de.en"))
	testDe := readLines(t, filepath.Join(out, "placeholders", "test", "en-de.de"))
	if len(train) != 33 || len(dev) != 4 || len(testEn) != 4 || len(testDe) != 4 {
		t.Fatalf("files: train %d, dev %d, test %d/%d lines", len(train), len(dev), len(testEn), len(testDe))
	}
	if !strings.Contains(strings.Join(train, "\n"), "{1} hierher kopieren") {
		t.Errorf("training lacks the masked %q:\n%s", "Copy %s here", strings.Join(train, "\n"))
	}
	inTrain := map[string]bool{}
	for _, l := range train {
		en, de, _ := strings.Cut(l, "\t")
		inTrain[Key(en)], inTrain[Key(de)] = true, true
	}
	for i := range testEn {
		mEn, mDe, err := placeholder.MaskPair(testEn[i], testDe[i], placeholder.Options{})
		if err != nil || !strings.Contains(testEn[i], "%s") {
			t.Errorf("test pair %q / %q is not an unmasked placeholder pair: %v", testEn[i], testDe[i], err)
		}
		if inTrain[Key(mEn.Text)] || inTrain[Key(mDe)] {
			t.Errorf("test pair %q is in training", mEn.Text)
		}
	}
	for _, l := range dev {
		en, _, _ := strings.Cut(l, "\t")
		if inTrain[Key(en)] || !strings.Contains(en, "{1}") {
			t.Errorf("dev pair %q is in training or not masked", en)
		}
	}
}
