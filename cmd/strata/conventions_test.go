package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestVersionFlag(t *testing.T) {
	out := run(t, "--version")
	if !strings.HasPrefix(out, "strata ") || out != run(t, "version") {
		t.Errorf("strata --version printed %q, strata version %q", out, run(t, "version"))
	}
}

// Old flag spellings still set what they set before, hidden from --help;
// the short flags set their long ones.
func TestOldFlagSpellings(t *testing.T) {
	for _, c := range []struct {
		cmd       []string
		args      []string
		flag, val string
	}{
		{[]string{"prepare"}, []string{"--out", "D"}, "output", "D"},
		{[]string{"prepare"}, []string{"--workers", "3"}, "threads", "3"},
		{[]string{"langid"}, []string{"--workers", "3"}, "threads", "3"},
		{[]string{"serve"}, []string{"--workers", "3"}, "decoders", "3"},
		{[]string{"score-nll"}, []string{"--reference", "R"}, "ref", "R"},
		{[]string{"analyze", "difficulty"}, []string{"--reference", "R"}, "ref", "R"},
		{[]string{"analyze", "difficulty"}, []string{"--out", "D"}, "output", "D"},
		{[]string{"analyze", "llr"}, []string{"--out", "D"}, "output", "D"},
		{[]string{"analyze", "llr-plot"}, []string{"--out", "D"}, "output", "D"},
		{[]string{"analyze", "attention"}, []string{"--out", "P"}, "output", "P"},
		{[]string{"analyze", "curves"}, []string{"--out", "P"}, "output", "P"},
		{[]string{"analyze", "grad-norms"}, []string{"--out", "P"}, "output", "P"},
		{[]string{"eval-matrix"}, []string{"--out", "D"}, "output", "D"},
		{[]string{"corpus", "l10n"}, []string{"--out", "D"}, "output", "D"},
		{[]string{"train"}, []string{"--temperature", "5"}, "lang-temperature", "5"},
		{[]string{"translate"}, []string{"--temperature", "0.5"}, "temperature", "0.5"},
		{[]string{"translate"}, []string{"-i", "I"}, "input", "I"},
		{[]string{"translate"}, []string{"-o", "O"}, "output", "O"},
		{[]string{"translate"}, []string{"-m", "M"}, "model", "[M]"},
		{[]string{"eval"}, []string{"-i", "H"}, "hyp", "H"},
		{[]string{"eval"}, []string{"-m", "ter"}, "metrics", "[ter]"},
		{[]string{"eval"}, []string{"--reference", "R"}, "ref", "[R]"},
		{[]string{"quantize"}, []string{"-m", "M"}, "model", "M"},
		{[]string{"quantize"}, []string{"-o", "O"}, "output", "O"},
		{[]string{"translate"}, []string{"--no-repeat-ngram-size", "3"}, "no-repeat-ngram", "3"},
		{[]string{"eval-matrix"}, []string{"--no-repeat-ngram-size", "3"}, "no-repeat-ngram", "3"},
		{[]string{"eval"}, []string{"--smooth-method", "floor"}, "smooth", "floor"},
	} {
		resetFlags(rootCmd)
		cmd, _, err := rootCmd.Find(c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.ParseFlags(c.args); err != nil {
			t.Errorf("strata %s %s: %v", strings.Join(c.cmd, " "), strings.Join(c.args, " "), err)
			continue
		}
		if got := cmd.Flags().Lookup(c.flag).Value.String(); got != c.val {
			t.Errorf("strata %s %s: --%s is %q, want %q", strings.Join(c.cmd, " "), strings.Join(c.args, " "), c.flag, got, c.val)
		}
	}
	resetFlags(rootCmd)
}

// --threads means compute threads and --max-tokens has one default in
// every command that translates.
func TestOneMeaningPerFlag(t *testing.T) {
	maxTokens := map[string]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, bad := range []string{"out", "reference", "workers"} {
			if f := c.Flags().Lookup(bad); f != nil && f.Name == bad { // an alias finds its new name
				t.Errorf("%s still has --%s", c.CommandPath(), bad)
			}
		}
		if f := c.Flags().Lookup("max-tokens"); f != nil && c.Flags().Lookup("beam") != nil {
			maxTokens[c.CommandPath()] = f.DefValue
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(rootCmd)
	if len(maxTokens) < 3 {
		t.Fatalf("translation-like commands found: %v", maxTokens)
	}
	for name, v := range maxTokens {
		if v != maxTokens["strata translate"] {
			t.Errorf("%s --max-tokens defaults to %s, translate to %s", name, v, maxTokens["strata translate"])
		}
	}
}

// --output is -o and --model is -m wherever they exist, as docs/cli.md's
// table of conventions says: one spelling for the whole CLI.
func TestShortOutputAndModelEverywhere(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for long, short := range map[string]string{"output": "o", "model": "m"} {
			if f := c.Flags().Lookup(long); f != nil && f.Shorthand != short {
				t.Errorf("%s --%s has no -%s", c.CommandPath(), long, short)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(rootCmd)
}
