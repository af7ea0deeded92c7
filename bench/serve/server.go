package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// server is a strata serve process.
type server struct {
	name string
	cmd  *exec.Cmd
	url  string
	// drained is closed when the process has exited; log holds its stderr
	// after the serving line (request log lines are counted, not kept)
	exited chan struct{}
	mu     sync.Mutex
	log    []string
}

var servingLine = regexp.MustCompile(`^serving .* on (http://\S+)$`)

func startServer(c config, name string, sd side, flags ...string) *server {
	args := []string{"serve", "--model", c.modelPath, "--addr", "127.0.0.1:0", "--compute-type", c.compute,
		"--decoders", strconv.Itoa(sd.decoders), "--threads", strconv.Itoa(sd.threads),
		"--beam", strconv.Itoa(c.beam), "--max-lines", strconv.Itoa(c.maxLines), "--queue-lines", "100000", "--timeout", "10m"}
	if c.dataDir != "" {
		args = append(args, "--data", c.dataDir)
	}
	args = append(args, flags...)
	args = append(args, c.extra...)
	s := &server{name: name, cmd: exec.Command(c.strata, args...), exited: make(chan struct{})}
	stderr, err := s.cmd.StderrPipe()
	check(err)
	check(s.cmd.Start())
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
			s.url = m[1]
			fmt.Fprintf(os.Stderr, "%s (%s, %s): %s\n", name, sd, c.compute, sc.Text())
			break
		}
		fmt.Fprintln(os.Stderr, sc.Text())
	}
	if s.url == "" {
		check(fmt.Errorf("strata %s: no serving line", strings.Join(args, " ")))
	}
	go func() {
		for sc.Scan() {
			if !strings.Contains(sc.Text(), "msg=request") {
				s.mu.Lock()
				s.log = append(s.log, sc.Text())
				s.mu.Unlock()
			}
		}
		s.cmd.Wait()
		close(s.exited)
	}()
	return s
}

// stop sends SIGTERM and waits for the drain; it returns the exit status
// and the log lines of the shutdown.
func (s *server) stop() (int, []string) {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(time.Minute):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd.ProcessState.ExitCode(), s.log
}

// rssBytes is the server's resident memory now (VmRSS).
func (s *server) rssBytes() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuSeconds is the CPU time the server has used (user + system).
func (s *server) cpuSeconds() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// the fields after the command name, which is in parentheses
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ
}

// sampleRSS records the peak resident memory until stop is closed.
func (s *server) sampleRSS(stop <-chan struct{}) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		peak := s.rssBytes()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				out <- max(peak, s.rssBytes())
				return
			case <-t.C:
				peak = max(peak, s.rssBytes())
			}
		}
	}()
	return out
}

// counter reads a counter from the server's /metrics.
func (s *server) counter(name string) float64 {
	resp, err := http.Get(s.url + "/metrics")
	check(err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	check(err)
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == name {
			v, err := strconv.ParseFloat(f[1], 64)
			check(err)
			return v
		}
	}
	return 0
}
