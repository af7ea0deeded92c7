package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hyp := write("hyp", "The dog bit the man.\nIt wasn't surprising.\nThe man had just bitten him.\n")
	r1 := write("r1", "The dog bit the man.\nIt was not unexpected.\nThe man bit him first.\n")
	r2 := write("r2", "The dog had bit the man.\nNo one was surprised.\nThe man had bitten the dog.\n")
	short := write("short", "one line\n")

	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", r1, "--ref", r2, "--metrics", "bleu,chrf"})
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"48.53  82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
		"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:",
		"chrF2", "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", short, "--metrics", "bleu"})
	err := rootCmd.Execute()
	if err == nil || !strings.Contains(err.Error(), hyp+" has 3 lines") || !strings.Contains(err.Error(), short+" has 1") {
		t.Errorf("mismatch error: %v", err)
	}
}
