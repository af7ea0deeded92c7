package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// curlExample is one `curl -s URL [-H 'K: V'] -d 'BODY'` of the docs.
type curlExample struct{ header, body string }

var (
	curlLine   = regexp.MustCompile(`curl -s localhost:8080(/\S+)((?: -H '[^']*')*) -d '([^']*)'`)
	curlHeader = regexp.MustCompile(`-H '([^:]+): ([^']*)'`)
)

// curlExamples finds the curl commands of text (continuation lines
// joined) for POST /translate.
func curlExamples(text string) []curlExample {
	var out []curlExample
	for _, m := range curlLine.FindAllStringSubmatch(strings.ReplaceAll(text, "\\\n  ", ""), -1) {
		if m[1] != "/translate" {
			continue
		}
		ct := "application/x-www-form-urlencoded" // what curl -d sends
		for _, h := range curlHeader.FindAllStringSubmatch(m[2], -1) {
			if strings.EqualFold(h[1], "Content-Type") {
				ct = h[2]
			}
		}
		out = append(out, curlExample{ct, m[3]})
	}
	return out
}

// The curl examples of docs/serving.md and `strata serve --help`, sent
// exactly as curl sends them, get 200 from the shipped model.
func TestServeDocumentedExamples(t *testing.T) {
	model := filepath.Join("..", "..", "models", "l10n-en-de")
	if _, err := os.Stat(filepath.Join(model, "model.bin")); err != nil {
		t.Skipf("no shipped model (%v)", err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "serving.md"))
	if err != nil {
		t.Fatal(err)
	}
	help, _, err := runErr("serve", "--help")
	if err != nil {
		t.Fatal(err)
	}
	docEx, helpEx := curlExamples(string(doc)), curlExamples(help)
	if len(docEx) < 3 || len(helpEx) < 2 {
		t.Fatalf("found %d curl examples in docs/serving.md and %d in serve --help", len(docEx), len(helpEx))
	}
	cmd := strataProcess("serve", "-m", model, "--addr", "127.0.0.1:0", "--decoders", "1", "--lid-model", "fallback")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	url := ""
	for url == "" && sc.Scan() {
		if m := regexp.MustCompile(`^serving .* on (http://\S+)$`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatal("no serving line")
	}
	go io.Copy(io.Discard, stderr)
	for _, ex := range append(docEx, helpEx...) {
		resp, err := http.Post(url+"/translate", ex.header, strings.NewReader(ex.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s (%s): status %d %s", ex.body, ex.header, resp.StatusCode, b)
		}
	}
}
