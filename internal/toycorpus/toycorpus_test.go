package toycorpus

import (
	"strings"
	"testing"
)

func TestDeterministicAndDistinct(t *testing.T) {
	a, b := Generate(50, 1), Generate(50, 1)
	for i := range a {
		for _, l := range Languages {
			if a[i][l] != b[i][l] {
				t.Fatal("same seed must give the same corpus")
			}
		}
		if a[i]["qaa"] == a[i]["qab"] || a[i]["qab"] == a[i]["qac"] {
			t.Fatalf("languages must differ: %v", a[i])
		}
	}
	if Generate(5, 2)[0]["qaa"] == a[0]["qaa"] && Generate(5, 2)[1]["qaa"] == a[1]["qaa"] {
		t.Fatal("different seeds should give different corpora")
	}
	t.Logf("example: %q / %q / %q", a[0]["qaa"], a[0]["qab"], a[0]["qac"])
}

// Word order must differ: the qab verb (with its tense suffix) ends the
// sentence, the qac sentence starts with the verb or negation.
func TestWordOrder(t *testing.T) {
	lex := lexicons()
	f := frame{subj: np{noun: 1, adj: -1}, obj: np{noun: 2, adj: -1}, verb: 3, tense: 1}
	b := renderB(f, lex["qab"])
	if !strings.HasSuffix(b, lex["qab"].verbs[3]+lex["qab"].tense[1]+" !") {
		t.Fatalf("qab must be verb-final: %q", b)
	}
	c := renderC(f, lex["qac"])
	if !strings.HasPrefix(strings.ToLower(c), lex["qac"].verbs[3]) {
		t.Fatalf("qac must be verb-initial: %q", c)
	}
}
