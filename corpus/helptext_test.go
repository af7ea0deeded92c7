package corpus

import (
	"reflect"
	"strings"
	"testing"
)

const pageEN = `<?xml version="1.0" encoding="utf-8"?>
<page xmlns="http://projectmallard.org/1.0/" xmlns:its="http://www.w3.org/2005/11/its" id="x">
  <info><title type="sort" its:translate="no">5</title>
    <credit><name>Someone</name></credit>
    <desc>Extract files from your archive.</desc></info>
  <title>Extract an archive</title>
  <p>Click <gui>Extract</gui>.</p>
  <list><item><p>Open an archive.</p></item></list>
</page>`

const pageDE = `<?xml version="1.0" encoding="utf-8"?>
<page xmlns="http://projectmallard.org/1.0/" xmlns:its="http://www.w3.org/2005/11/its" id="x">
  <info><title type="sort" its:translate="no">5</title>
    <credit><name>Someone</name></credit>
    <desc>Dateien aus einem Archiv entpacken.</desc></info>
  <title>Ein Archiv entpacken</title>
  <p>Klicken Sie auf <gui>Entpacken</gui>.</p>
  <list><item><p>Öffnen Sie ein Archiv.</p></item></list>
</page>`

func TestXMLBlocks(t *testing.T) {
	got, err := xmlBlocks(strings.NewReader(pageDE))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Dateien aus einem Archiv entpacken.", "Ein Archiv entpacken", "Klicken Sie auf Entpacken.", "Öffnen Sie ein Archiv."}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestHTMLParagraphs(t *testing.T) {
	page := `<html><body><div id="DisplayArea"><h1 id="hd_id1">New</h1>
<p id="par_id2" class="paragraph">Creates a <a href="x">new</a> document.</p>
<p>not a paragraph with an id</p><div id="par_id3"><div>nested</div> text</div></div></body></html>`
	got, err := htmlParagraphs(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	want := []paragraph{{"hd_id1", "New"}, {"par_id2", "Creates a new document."}, {"par_id3", "nested text"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestClassify(t *testing.T) {
	langs := []string{"de", "zh"}
	for name, want := range map[string][3]any{
		"usr/share/locale/de/LC_MESSAGES/app.mo":                        {kindMO, "de", "app.mo"},
		"usr/share/locale/de_DE/LC_MESSAGES/app.mo":                     {kindMO, "de", "app.mo"},
		"usr/share/locale/de_CH/LC_MESSAGES/app.mo":                     {kindOther, "", ""},
		"usr/share/locale/zh_CN/LC_MESSAGES/app.mo":                     {kindMO, "zh", "app.mo"},
		"usr/share/locale/zh_TW/LC_MESSAGES/app.mo":                     {kindOther, "", ""},
		"usr/share/locale/sr@latin/LC_MESSAGES/app.mo":                  {kindOther, "", ""},
		"usr/lib/libreoffice/program/resource/de/LC_MESSAGES/sw.mo":     {kindMO, "de", "sw.mo"},
		"usr/share/help/C/file-roller/index.page":                       {kindMallard, English, "file-roller/index.page"},
		"usr/share/help/de/file-roller/index.page":                      {kindMallard, "de", "file-roller/index.page"},
		"usr/share/libreoffice/help/en-US/text/shared/01/01010000.html": {kindLOHelp, English, "text/shared/01/01010000.html"},
		"usr/share/libreoffice/help/zh-CN/text/shared/01/01010000.html": {kindLOHelp, "zh", "text/shared/01/01010000.html"},
		"usr/share/wordpress/wp-content/languages/admin-de_DE.mo":       {kindMO, "de", "admin-de_DE.mo"},
		"usr/share/wordpress/wp-content/languages/de_DE.mo":             {kindMO, "de", "de_DE.mo"},
		"usr/share/wordpress/wp-content/languages/pt_BR.mo":             {kindOther, "", ""},
		"usr/share/doc/app/README":                                      {kindOther, "", ""},
	} {
		k, l, r := classify(name, langs)
		if got := [3]any{k, l, r}; got != want {
			t.Errorf("classify(%q) = %v, want %v", name, got, want)
		}
	}
}
