package analysis

import (
	"fmt"
	"sort"
	"strings"
)

// Direction is a translation direction.
type Direction struct {
	Src string `json:"src"`
	Tgt string `json:"tgt"`
}

func (d Direction) String() string { return d.Src + "-" + d.Tgt }

// Kinds of direction.
const (
	Supervised = "supervised" // to or from the pivot (English)
	ZeroShot   = "zero-shot"  // between two non-pivot languages
)

// Kind says whether d is supervised or zero-shot for an English-centric
// model whose training directions all involve pivot.
func (d Direction) Kind(pivot string) string {
	if d.Src == pivot || d.Tgt == pivot {
		return Supervised
	}
	return ZeroShot
}

// ParseDirection reads "de-fr".
func ParseDirection(s string) (Direction, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok || a == "" || b == "" || strings.Contains(b, "-") {
		return Direction{}, fmt.Errorf("direction %q: want SRC-TGT, e.g. de-fr", s)
	}
	if a == b {
		return Direction{}, fmt.Errorf("direction %q: source and target are the same language", s)
	}
	return Direction{a, b}, nil
}

// AllDirections enumerates every ordered pair of distinct languages:
// supervised directions (pivot→X then X→pivot, X in order) first, then the
// zero-shot ones (X→Y, sorted). langs must contain pivot for supervised
// directions to appear.
func AllDirections(langs []string, pivot string) []Direction {
	others := make([]string, 0, len(langs))
	hasPivot := false
	for _, l := range langs {
		if l == pivot {
			hasPivot = true
		} else {
			others = append(others, l)
		}
	}
	sort.Strings(others)
	var out []Direction
	if hasPivot {
		for _, x := range others {
			out = append(out, Direction{pivot, x})
		}
		for _, x := range others {
			out = append(out, Direction{x, pivot})
		}
	}
	for _, x := range others {
		for _, y := range others {
			if x != y {
				out = append(out, Direction{x, y})
			}
		}
	}
	return out
}

// SelectKind keeps the directions of one kind.
func SelectKind(ds []Direction, pivot, kind string) []Direction {
	var out []Direction
	for _, d := range ds {
		if d.Kind(pivot) == kind {
			out = append(out, d)
		}
	}
	return out
}
