package corpus

import "testing"

func TestStripAccelerators(t *testing.T) {
	for in, want := range map[string]string{
		"_Open File":         "Open File",
		"Save _As…":          "Save As…",
		"&Open the file":     "Open the file",
		"~Open the file":     "Open the file",
		"打开文件(_O)":           "打开文件",
		"ファイルを開く(&O)":        "ファイルを開く",
		"a_b and c_d":        "a_b and c_d", // two markers: identifiers, kept
		"Open ~/.config":     "Open ~/.config",
		"Tom && Jerry":       "Tom & Jerry",
		"Salt & pepper":      "Salt & pepper",
		"Show _hidden files": "Show hidden files",
	} {
		if got := StripAccelerators(in); got != want {
			t.Errorf("StripAccelerators(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClean(t *testing.T) {
	for _, c := range []struct {
		lang, en, tgt, why string
	}{
		{"de", "Open the  file\n", "Datei öffnen", ""},
		{"de", "_Open the file", "Datei ö_ffnen", ""},
		{"de", "Copied %d files", "%d Dateien kopiert", DropPlaceholder},
		{"de", "Copied %1$s to %2$s", "%1$s nach %2$s kopiert", DropPlaceholder},
		{"de", "Hello %(name)s there", "Hallo %(name)s", DropPlaceholder},
		{"de", "Copied %1 files", "%1 Dateien kopiert", DropPlaceholder},
		{"de", "Welcome {0} here", "Willkommen {0}", DropPlaceholder},
		{"de", "Set $HOME now", "Setze $HOME jetzt", DropPlaceholder},
		{"de", "50% of the disk", "50% der Platte", ""},
		{"de", "Click <b>Open</b> now", "Klicken Sie auf <b>Öffnen</b>", DropMarkup},
		{"de", "Tom &amp; Jerry show", "Tom &amp; Jerry Sendung", DropMarkup},
		{"de", "Use a < b here", "Verwende a < b hier", ""},
		{"de", "Online Help", "online help", DropIdentical},
		{"ru", "Open the file", "Open the file now", DropScript},
		{"ru", "Open the file", "Открыть файл", ""},
		{"ru", "Open in GIMP", "Открыть в GIMP", ""},
		{"zh", "Open the file", "打开文件", ""},
		{"zh", "Open the file", "Открыть файл", DropScript},
		{"ar", "Open the file", "افتح الملف", ""},
		{"de", "Öffnen Sie die Datei", "Datei öffnen", ""}, // Latin script: not a language check
		{"de", "Open", "Öffnen", DropLength},
		{"de", "Open the file", "Datei öffnen und dann noch viel mehr Text, der nicht dazugehört, weil", DropLength},
		{"de", "  ", "x", DropEmpty},
	} {
		_, _, why := Clean(c.lang, c.en, c.tgt)
		if why != c.why {
			t.Errorf("Clean(%s, %q, %q): %q, want %q", c.lang, c.en, c.tgt, why, c.why)
		}
	}
}

func TestKey(t *testing.T) {
	if Key("  Open the  File. ") != Key("open the file") || Key("Open?") != "open" || Key("打开。") != "打开" {
		t.Fatal("Key does not normalise case, spaces and final punctuation")
	}
}

func TestCleanPairsDedupes(t *testing.T) {
	counts := map[string]int{}
	out, why, _ := cleanPairs("de", []Pair{
		{En: "Open the file", Tgt: "Datei öffnen", Origin: "a:x"},
		{En: "Open the  file", Tgt: "Datei öffnen", Origin: "b:y"},
		{En: "Open the file", Tgt: "Öffne die Datei", Origin: "b:y"},
		{En: "Save %s", Tgt: "%s speichern", Origin: "b:y"},
	}, counts)
	if len(out) != 2 || out[0].Origin != "a:x" || counts["duplicate"] != 1 || counts[DropPlaceholder] != 1 {
		t.Fatalf("kept %v, counts %v", out, counts)
	}
	if why["Save %s\t%s speichern"] != DropPlaceholder {
		t.Fatalf("drop reasons %v", why)
	}
}

func TestSplitHelpItems(t *testing.T) {
	en := "  -1 FIELD               join on this FIELD of file 1\n      --check-order      check that the input is correctly sorted, even\n                           if all input lines are pairable\n"
	de := "  -1 FELD                mit diesem FELD von DATEI1 verschmelzen\n                           (fortgesetzt)\n  --check-order          prüfen, ob die Eingabe richtig sortiert ist\n"
	a, b := splitLines(en, de), splitLines(de, en)
	if len(a) != 2 || len(b) != 2 || Normalize(a[1]) != "--check-order check that the input is correctly sorted, even if all input lines are pairable" {
		t.Fatalf("items %q / %q", a, b)
	}
	if got := splitLines("one\ntwo", "eins zwei"); len(got) != 1 {
		t.Fatalf("unequal line counts split: %q", got)
	}
}
