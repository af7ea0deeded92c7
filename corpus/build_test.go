package corpus

import (
	"bufio"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeArchive is an archive of three packages: an application whose
// catalogues hold 30 translated sentences in German and French plus
// strings the cleaning rules drop, a help package with English and German
// Mallard pages, and a package with catalogues of another language only.
func fakeArchive() *fakeSource {
	var de, fr []string
	for i := 0; i < 30; i++ {
		en, d, f := sentence(i)
		de, fr = append(de, en, d), append(fr, en, f)
	}
	de = append(de, "_Open the file", "Datei ö_ffnen", "Copy %s here", "%s hierher kopieren", "Quit", "Beenden",
		"Online Help page", "Online Help page", "Show the\nlist of files", "Zeige die\nDateiliste")
	fr = append(fr, "_Open the file", "_Ouvrir le fichier")
	return &fakeSource{version: "1.0-1", pkgs: map[string]map[string][]byte{
		"app": {
			"usr/share/locale/de/LC_MESSAGES/app.mo":    moFile(de...),
			"usr/share/locale/fr/LC_MESSAGES/app.mo":    moFile(fr...),
			"usr/share/locale/pt_BR/LC_MESSAGES/app.mo": moFile("Open the file", "Abrir o arquivo"),
			"usr/bin/app": []byte("binary"),
		},
		"app-help": {
			"usr/share/help/C/app/index.page":  []byte(pageEN),
			"usr/share/help/de/app/index.page": []byte(pageDE),
		},
		"other": {"usr/share/locale/ja/LC_MESSAGES/other.mo": moFile("Open the file", "ファイルを開く")},
	}}
}

func readGz(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestBuildWithFakeArchive builds a corpus without network or apt: the
// pairs are cleaned, the held-out sets are n-way and absent from training,
// and the manifest pins the packages.
func TestBuildWithFakeArchive(t *testing.T) {
	out := t.TempDir()
	src := fakeArchive()
	opt := Options{Langs: []string{"de", "fr"}, Output: out, Source: src, HeldOutSize: 5,
		Packages: []string{"app", "app-help", "other", "not-in-archive"}}
	m, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Packages) != 3 || m.Missing[0] != "not-in-archive" || m.HeldOut != "split" {
		t.Fatalf("manifest packages %v, missing %v, held out %q", m.Packages, m.Missing, m.HeldOut)
	}
	de := readGz(t, filepath.Join(out, "train", "en-de.tsv.gz"))
	fr := readGz(t, filepath.Join(out, "train", "en-fr.tsv.gz"))
	joined := strings.Join(de, "\n")
	for _, want := range []string{"Open the file\tDatei öffnen", "Show the\tZeige die", "Extract an archive\tEin Archiv entpacken", "Click Extract.\tKlicken Sie auf Entpacken."} {
		if !strings.Contains(joined, want) {
			t.Errorf("en-de training lacks %q:\n%s", want, joined)
		}
	}
	for _, bad := range []string{"%s", "Quit", "Online Help page\tOnline"} {
		if strings.Contains(joined, bad) {
			t.Errorf("en-de training keeps %q", bad)
		}
	}
	// 30 sentences, 10 held out: 20 in training, plus the cleaned extras.
	if got := len(fr); got != 21 {
		t.Errorf("en-fr has %d pairs, want 21 (20 sentences, 1 accelerator string)", got)
	}
	en, dde, dfr := readLines(t, filepath.Join(out, "dev", "dev.en")), readLines(t, filepath.Join(out, "dev", "dev.de")), readLines(t, filepath.Join(out, "dev", "dev.fr"))
	test := readLines(t, filepath.Join(out, "test", "test.en"))
	if len(en) != 5 || len(dde) != 5 || len(dfr) != 5 || len(test) != 5 {
		t.Fatalf("dev %d/%d/%d lines, test %d; want 5 each", len(en), len(dde), len(dfr), len(test))
	}
	for i := range en {
		var n int
		var e, d, f string
		for n = 0; n < 30; n++ {
			if e, d, f = sentence(n); e == en[i] {
				break
			}
		}
		if d != dde[i] || f != dfr[i] {
			t.Errorf("dev line %d is not n-way parallel: %q %q %q", i, en[i], dde[i], dfr[i])
		}
		for _, l := range append(de, fr...) {
			if strings.HasPrefix(l, en[i]+"\t") {
				t.Errorf("dev string %q is in training", en[i])
			}
		}
	}
	for _, r := range m.Report {
		if r.Leaked != 0 || r.Dropped["held out"] != 10 {
			t.Errorf("%s: leaked %d, held out %d; want 0 and 10", r.Lang, r.Leaked, r.Dropped["held out"])
		}
	}

	// The manifest pins the build: a rebuild from it gives the same files.
	pin, err := ReadManifest(filepath.Join(out, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	out2 := t.TempDir()
	m2, err := Build(context.Background(), Options{Langs: opt.Langs, Output: out2, Source: fakeArchive(), HeldOutSize: 5, Pin: pin})
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Outputs {
		if m.Outputs[i] != m2.Outputs[i] {
			t.Errorf("pinned rebuild: %v, first build %v", m2.Outputs[i], m.Outputs[i])
		}
	}
	// A package whose content changed under the same version is refused.
	changed := fakeArchive()
	changed.pkgs["app"]["usr/bin/app"] = []byte("other binary")
	_, err = Build(context.Background(), Options{Langs: opt.Langs, Output: t.TempDir(), Source: changed, HeldOutSize: 5, Pin: pin})
	if err == nil || !strings.Contains(err.Error(), "pinned package app 1.0-1: SHA-256") {
		t.Fatalf("changed package: %v", err)
	}
	moved := fakeArchive()
	moved.version = "2.0-1"
	_, err = Build(context.Background(), Options{Langs: opt.Langs, Output: t.TempDir(), Source: moved, HeldOutSize: 5, Pin: pin})
	if err == nil || !strings.Contains(err.Error(), "could not be fetched") {
		t.Fatalf("version gone from the archive: %v", err)
	}
}

// TestBuildReusesReference: the reference's dev and test lines are reused
// as they are, kept out of training, checked by hash, and the training
// pairs are compared with the reference's.
func TestBuildReusesReference(t *testing.T) {
	ref := t.TempDir()
	e0, d0, _ := sentence(0)
	e1, d1, _ := sentence(1)
	writes := map[string]string{"dev/dev.en": e0 + "\n", "dev/dev.de": d0 + "\n", "test/test.en": strings.ToUpper(e1) + "!\n", "test/test.de": d1 + "\n"}
	for p, s := range writes {
		os.MkdirAll(filepath.Join(ref, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(ref, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e2, d2, _ := sentence(2)
	writeRefTrain(t, filepath.Join(ref, "train", "en-de.tsv.gz"), e2+"\t"+d2, "Not in any package\tIn keinem Paket", "Copy %s here\t%s hierher kopieren")
	out := t.TempDir()
	sums := map[string]string{}
	m, err := Build(context.Background(), Options{Langs: []string{"de"}, Output: out, Source: fakeArchive(), Reference: ref, ReferenceSums: sums, Packages: []string{"app"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := readLines(t, filepath.Join(out, "test", "test.en")); got[0] != strings.ToUpper(e1)+"!" {
		t.Fatalf("test set not reused: %q", got)
	}
	for _, l := range readGz(t, filepath.Join(out, "train", "en-de.tsv.gz")) {
		if strings.HasPrefix(l, e0) || strings.HasPrefix(l, e1) {
			t.Errorf("held-out string in training: %q", l)
		}
	}
	o := m.Report[0].Overlap
	if o == nil || o.Shared != 1 || o.Reference != 3 || o.Missing["not extracted"] != 1 || o.Missing["dropped: placeholder"] != 1 || o.ByPackage["app"] != 1 {
		t.Fatalf("overlap %+v", o)
	}
	// A reference whose files differ from the published sums is refused.
	sums["dev/dev.en"] = strings.Repeat("0", 64)
	_, err = Build(context.Background(), Options{Langs: []string{"de"}, Output: t.TempDir(), Source: fakeArchive(), Reference: ref, ReferenceSums: sums, Packages: []string{"app"}})
	if err == nil || !strings.Contains(err.Error(), "it was changed") {
		t.Fatalf("changed reference: %v", err)
	}
}

func writeRefTrain(t *testing.T, path string, lines ...string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	z.Write([]byte(strings.Join(lines, "\n") + "\n"))
	z.Close()
	f.Close()
}

func TestBuildRejectsBadLanguages(t *testing.T) {
	for _, langs := range [][]string{nil, {"en"}, {"DE"}, {"de", "de"}, {"german"}} {
		if _, err := Build(context.Background(), Options{Langs: langs, Output: t.TempDir(), Source: fakeArchive()}); err == nil {
			t.Errorf("languages %q accepted", langs)
		}
	}
}

// TestBuildLogsProgress: a build names each package as it reads it and
// says when it moves on to cleaning, so a long build never looks hung.
func TestBuildLogsProgress(t *testing.T) {
	var log strings.Builder
	opt := Options{Langs: []string{"de"}, Output: t.TempDir(), Source: fakeArchive(), HeldOutSize: 5,
		Packages: []string{"app", "other"}, Log: &log}
	if _, err := Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"corpus: reading app ", "(1/2,", "corpus: reading other ", "(2/2,", "corpus: cleaning, aligning and splitting "} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}
