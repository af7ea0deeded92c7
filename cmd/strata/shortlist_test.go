package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shortlist refuses bad arguments before it writes its output.
func TestShortlistValidatesBeforeWriting(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--report", "nosuch"}, "--report"},
		{[]string{"--min-count", "-3"}, "--min-count -3"},
		{[]string{"--k", "1000000000"}, "--k 1000000000"},
	} {
		out := filepath.Join(t.TempDir(), "sl.txt")
		_, _, err := runErr(append([]string{"shortlist", "--data", data, "--output", out}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %q", c.args, err, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the shortlist was written", c.args)
		}
	}
}
