package serve

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium or Chrome binary, or skips the test.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium): the page test drives a headless browser")
	return ""
}

// The page in headless Chromium: type two lines, press Translate, and the
// page shows the JSON API's translations, n-best lists and an attention
// map.
func TestPageInChromium(t *testing.T) {
	path := chromium(t)
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actx, cancelA := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	err := chromedp.Do(bctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]`)),
		chromedp.SetValue(chromedp.ID("src"), "en"),
		chromedp.SetValue(chromedp.ID("tgt"), "de"),
		chromedp.SendKeys(chromedp.ID("text"), "the cat sat\na dog ran"),
		chromedp.Click(chromedp.ID("translate")),
		chromedp.WaitReady(chromedp.CSS(`#output[data-done="1"]`)),
	)
	if err != nil {
		t.Fatalf("driving the page: %v", err)
	}
	out, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById("output").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	counts, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](
		`[document.querySelectorAll("#nbest li").length, document.querySelectorAll("#attn td").length, document.querySelectorAll("#src option").length]`))
	if err != nil {
		t.Fatal(err)
	}
	hyps, cells := counts[0], counts[1]
	body, _ := json.Marshal(Request{Text: []string{"the cat sat", "a dog ran"}, SrcLang: "en", TgtLang: "de", Beam: 5})
	_, want, _ := postJSON(t, ts.URL, string(body))
	var lines []string
	for _, x := range want["translations"].([]any) {
		lines = append(lines, x.(string))
	}
	if strings.TrimSpace(out) == "" {
		t.Fatalf("the page shows no translation")
	}
	if out != strings.Join(lines, "\n") {
		t.Errorf("page shows %q, the API translates to %q", out, lines)
	}
	if hyps != 6 || cells == 0 {
		t.Errorf("page shows %d n-best entries (want 2 lines × 3) and %d attention cells", hyps, cells)
	}
}
