package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"
)

// postFile sends /translate_file's multipart form and decodes the answer.
func postFile(t *testing.T, url, name, content string, fields map[string]string) (int, map[string]any) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if name != "" {
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(fw, content)
	}
	mw.Close()
	resp, err := http.Post(url+"/translate_file", mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("status %d, body %q is not JSON", resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

func download(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// A file goes in as LibreTranslate's multipart form and comes back from
// the URL in translatedFileUrl, under its own name: a text file line by
// line, a catalogue filled (the tiny model breaks placeholders, so its
// entries may stay empty, but the file stays a catalogue), a page with
// its markup.
func TestTranslateFile(t *testing.T) {
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	_, own, _ := postJSON(t, ts.URL, `{"text": ["the cat sat", "a dog ran"], "src_lang": "en", "tgt_lang": "de"}`)
	want := own["translations"].([]any)
	lang := map[string]string{"source": "en", "target": "de", "api_key": ""}
	code, out := postFile(t, ts.URL, "../../etc/My notes.TXT", "the cat sat\r\na dog ran", lang)
	u, _ := out["translatedFileUrl"].(string)
	if code != 200 || !strings.HasPrefix(u, ts.URL+"/download_file/") || len(out) != 1 {
		t.Fatalf("txt: status %d, body %v", code, out)
	}
	code, body, h := download(t, u)
	if code != 200 || body != want[0].(string)+"\r\n"+want[1].(string) {
		t.Errorf("txt download: status %d, %q", code, body)
	}
	if cd := h.Get("Content-Disposition"); cd != `attachment; filename="My_notes.TXT"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	for name, content := range map[string]string{
		"de.po":     "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\n#: a.c:1\nmsgid \"the cat\"\nmsgstr \"\"\n",
		"page.html": `<p class="x">the <b>cat</b> sat</p><script>var a = "the cat";</script>`,
		"u.xlf":     `<xliff version="1.2"><file source-language="en" target-language="de" datatype="plaintext" original="f"><body><trans-unit id="1"><source>the cat</source></trans-unit></body></file></xliff>`,
	} {
		code, out := postFile(t, ts.URL, name, content, lang)
		if code != 200 {
			t.Errorf("%s: status %d, body %v", name, code, out)
			continue
		}
		code, body, _ := download(t, out["translatedFileUrl"].(string))
		if code != 200 {
			t.Errorf("%s download: status %d", name, code)
		}
		for _, keep := range []string{`#: a.c:1`, `<p class="x">`, `<script>var a = "the cat";</script>`, `<trans-unit id="1">`} {
			if strings.Contains(content, keep) && !strings.Contains(body, keep) {
				t.Errorf("%s: lost %s:\n%s", name, keep, body)
			}
		}
	}
	if code, _, _ := download(t, ts.URL+"/download_file/..%2F..%2Fetc%2Fpasswd"); code != 404 {
		t.Errorf("unknown file: status %d", code)
	}
}

// The file API refuses as /translate does: 400 naming what is missing or
// wrong, 413 for a body over --max-body-bytes, 400 for more lines than
// --max-lines.
func TestTranslateFileErrors(t *testing.T) {
	o := testOptions()
	o.MaxBody = 2000
	_, ts, _ := newTestServer(t, testBundle(t), o)
	lang := map[string]string{"source": "en", "target": "de"}
	for _, c := range []struct {
		name, content string
		fields        map[string]string
		code          int
		msg           string
	}{
		{"", "", lang, 400, "missing file"},
		{"a.txt", "x", map[string]string{"target": "de"}, 400, "missing source"},
		{"a.txt", "x", map[string]string{"source": "en"}, 400, "missing target"},
		{"a.docx", "x", lang, 400, "file format not supported"},
		{"a.txt", "x", map[string]string{"source": "en", "target": "xx"}, 400, "xx"},
		{"a.txt", "a\nb\nc\nd\ne", lang, 400, "--max-lines"},
		{"a.po", "msgid \"x\nmsgstr", lang, 400, "a.po"},
		{"a.txt", strings.Repeat("cat ", 600), lang, 413, "--max-body-bytes"},
	} {
		code, out := postFile(t, ts.URL, c.name, c.content, c.fields)
		if e, _ := out["error"].(string); code != c.code || !strings.Contains(e, c.msg) {
			t.Errorf("%s %v: status %d, body %v; want %d with %q", c.name, c.fields, code, out, c.code, c.msg)
		}
	}
}

// The store keeps at most its bytes, evicting the oldest, and forgets a
// file once its time is past; names are random and the client's name is
// reduced to safe characters.
func TestFileStore(t *testing.T) {
	fs := newFileStore(10, time.Minute)
	now := time.Unix(1000, 0)
	fs.now = func() time.Time { return now }
	a, _ := fs.put("a.txt", []byte("12345"))
	b, _ := fs.put("b.txt", []byte("12345"))
	c, _ := fs.put("c.txt", []byte("123"))
	if fs.get(a) != nil || fs.get(b) == nil || fs.get(c) == nil || fs.size != 8 {
		t.Errorf("eviction: a %v b %v c %v size %d", fs.get(a), fs.get(b), fs.get(c), fs.size)
	}
	if _, err := fs.put("big", make([]byte, 11)); err == nil {
		t.Error("a file larger than the store was taken")
	}
	now = now.Add(time.Minute)
	if fs.get(b) != nil || fs.size != 0 {
		t.Errorf("expiry: size %d", fs.size)
	}
	for in, want := range map[string]string{
		"../../etc/passwd": "passwd", `C:\Users\x\Résumé final.po`: "R_sum__final.po", "...": "file",
		".htaccess": "htaccess", "a\"b;c.html": "a_b_c.html", strings.Repeat("x", 300) + ".po": strings.Repeat("x", 97) + ".po",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// format "html" translates a page sentence by sentence and gives back its
// markup; an unknown format is refused.
func TestLibreHTML(t *testing.T) {
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	code, out, _ := postJSON(t, ts.URL, `{"q": ["<p class=\"c\">the cat sat</p><script>x = 1</script>", "<br>"], "source": "en", "target": "de", "format": "html"}`)
	got, _ := out["translatedText"].([]any)
	if code != 200 || len(got) != 2 {
		t.Fatalf("status %d, body %v", code, out)
	}
	if s := got[0].(string); !strings.HasPrefix(s, `<p class="c">`) || !strings.HasSuffix(s, `</p><script>x = 1</script>`) || got[1] != "<br>" {
		t.Errorf("markup not kept: %q", got)
	}
	code, out, _ = postJSON(t, ts.URL, `{"q": "<p>a</p><p>b</p><p>c</p><p>d</p><p>e</p>", "source": "en", "target": "de", "format": "html"}`)
	if e, _ := out["error"].(string); code != 400 || !strings.Contains(e, "--max-lines") {
		t.Errorf("five sentences, --max-lines 4: status %d, body %v", code, out)
	}
}

// GET /frontend/settings answers as LibreTranslate's does.
func TestFrontendSettings(t *testing.T) {
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	resp, err := http.Get(ts.URL + "/frontend/settings")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		CharLimit        int      `json:"charLimit"`
		FrontendTimeout  int      `json:"frontendTimeout"`
		APIKeys          bool     `json:"apiKeys"`
		KeyRequired      bool     `json:"keyRequired"`
		Suggestions      bool     `json:"suggestions"`
		FilesTranslation bool     `json:"filesTranslation"`
		Formats          []string `json:"supportedFilesFormat"`
		Language         map[string]struct {
			Code, Name string
		} `json:"language"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || out.CharLimit != 4*4096 || !out.FilesTranslation || out.KeyRequired ||
		strings.Join(out.Formats, " ") != ".htm .html .po .txt .xlf .xliff" ||
		out.Language["source"].Code != "de" || out.Language["target"].Name != "English" {
		t.Errorf("status %d, %+v", resp.StatusCode, out)
	}
}
