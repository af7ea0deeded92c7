package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM while a request is being answered: the request completes with
// 200, the drain is logged and the process exits 0. A port already taken
// fails before any "serving" line.
func TestServeSIGTERMDrains(t *testing.T) {
	dir := t.TempDir()
	run(t, "quickstart", "--dir", dir, "--train-time", "1s", "--sentences", "300", "--test-sentences", "10", "--beam", "1")
	// --batch-wait keeps the request queued long enough to signal during it
	cmd := exec.Command(os.Args[0], "serve", "--model", filepath.Join(dir, "run"), "--addr", "127.0.0.1:0",
		"--batch-wait", "1s", "--threads", "1")
	cmd.Env = append(os.Environ(), "STRATA_AS_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var log strings.Builder
	addr := ""
	for addr == "" && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if m := regexp.MustCompile(`^serving .* on http://(\S+)$`).FindStringSubmatch(lines.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("no serving line:\n%s", log.String())
	}
	rest := make(chan string)
	go func() { b, _ := io.ReadAll(stderr); rest <- string(b) }()
	code := make(chan int, 1)
	start := time.Now()
	go func() {
		resp, err := http.Post("http://"+addr+"/translate", "application/json",
			strings.NewReader(`{"text": ["Va patemar te zuba."], "src_lang": "qaa", "tgt_lang": "qab"}`))
		if err != nil {
			code <- -1
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		code <- resp.StatusCode
	}()
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	if c := <-code; c != 200 {
		t.Errorf("request in flight at SIGTERM: status %d", c)
	}
	log.WriteString(<-rest)
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v\n%s", err, log.String())
	}
	if time.Since(start) < time.Second || !strings.Contains(log.String(), "msg=drained requests=1 lines=1") {
		t.Errorf("no drain of the request in the log:\n%s", log.String())
	}
	// a taken port: the bind error, and no serving line
	taken := exec.Command(os.Args[0], "serve", "--model", filepath.Join(dir, "run"), "--addr", addrInUse(t))
	taken.Env = cmd.Env
	out, err := taken.CombinedOutput()
	if err == nil || strings.Contains(string(out), "serving") || !strings.Contains(string(out), "address already in use") {
		t.Errorf("serve on a taken port: %v\n%s", err, out)
	}
}

// addrInUse is an address another listener holds for the test's duration.
func addrInUse(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}
