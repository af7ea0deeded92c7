package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// TestSuite is what eval-matrix evaluates: one n-way test set (a directory
// of PREFIX.LANG or FLORES files, or a pair directory such as Tatoeba's
// ita-nld/test.{ita,nld}), or a directory of such sets, each of which
// contributes every direction between its languages. Pairwise sets have no
// English side, so they give zero-shot directions only.
type TestSuite struct {
	Dir   string
	Parts []*TestSet // Name is the subdirectory ("" for a flat directory)
}

// Files returns every file read, keyed by PART/LANG (LANG for a flat
// directory), for fingerprints.
func (s *TestSuite) Files() map[string]string {
	out := map[string]string{}
	for _, p := range s.Parts {
		for l, f := range p.Files {
			out[partKey(p.Name, l)] = f
		}
	}
	return out
}

func partKey(part, name string) string {
	if part == "" {
		return name
	}
	return part + "/" + name
}

// ReadTestSuite reads dir for the languages langs. When dir holds test
// files itself it is one set, read as ReadTestSet does when strict (every
// language must have a file) or, when not strict, with the languages of
// langs it has files for (at least two). Otherwise every subdirectory with
// files for at least two of langs is a part with those languages
// (Tatoeba's layout: tatoeba/ita-nld, tatoeba/ita-ron, ...); the others are
// skipped. maxLines keeps the first lines of every file (0: all).
func ReadTestSuite(dir string, langs []string, strict bool, maxLines int) (*TestSuite, error) {
	found, err := ScanTestSet(dir)
	if err != nil {
		return nil, err
	}
	suite := &TestSuite{Dir: dir}
	if len(found) > 0 {
		use := langs
		if !strict {
			if use = present(found, langs); len(use) < 2 {
				return nil, fmt.Errorf("%s has files for %d of the languages %v: need at least two (or give --langs)", dir, len(use), langs)
			}
		}
		ts, err := ReadTestSet(dir, use, maxLines)
		if err != nil {
			return nil, err
		}
		suite.Parts = []*TestSet{ts}
		return suite, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		files, err := ScanTestSet(sub)
		if err != nil {
			return nil, err
		}
		use := present(files, langs)
		if len(use) < 2 {
			continue
		}
		ts, err := ReadTestSet(sub, use, maxLines)
		if err != nil {
			return nil, err
		}
		ts.Name = e.Name()
		suite.Parts = append(suite.Parts, ts)
	}
	if len(suite.Parts) == 0 {
		return nil, fmt.Errorf("%s: no test files (test.LANG, FLORES xxx_Yyyy.devtest) and no subdirectory with files for two of %v",
			dir, langs)
	}
	sort.Slice(suite.Parts, func(i, j int) bool { return suite.Parts[i].Name < suite.Parts[j].Name })
	return suite, nil
}

// present keeps the languages of langs that files has, in langs' order.
func present(files map[string]string, langs []string) []string {
	var out []string
	for _, l := range langs {
		if files[l] != "" {
			out = append(out, l)
		}
	}
	return out
}

// suiteDirections assigns directions to parts: every direction of every
// part when want is empty, else each wanted direction to the part that has
// both its languages (an error when none has).
func suiteDirections(s *TestSuite, want []Direction, opt *MatrixOptions) ([][]Direction, error) {
	out := make([][]Direction, len(s.Parts))
	if len(want) == 0 {
		for i, p := range s.Parts {
			out[i] = opt.allDirections(p.Languages())
		}
		return out, nil
	}
	for _, d := range want {
		placed := false
		for i, p := range s.Parts {
			if p.Lines[d.Src] != nil && p.Lines[d.Tgt] != nil {
				out[i] = append(out[i], d)
				placed = true
				break
			}
		}
		if !placed {
			var have []string
			for _, p := range s.Parts {
				have = append(have, strings.Join(p.Languages(), ","))
			}
			return nil, fmt.Errorf("direction %s: no test set in %s has both languages (sets: %s)", d, s.Dir, strings.Join(have, "; "))
		}
	}
	return out, nil
}

// EvalSuite evaluates every part of a suite as EvalMatrix does (each part's
// hypotheses under HypDir/PART) and merges the rows; the averages are
// unweighted means over all the suite's directions. A suite of one part is
// evaluated exactly as that set alone.
func EvalSuite(ctx context.Context, tr Translator, s *TestSuite, opt MatrixOptions) (*MatrixResult, error) {
	if len(s.Parts) == 1 {
		return EvalMatrix(ctx, tr, s.Parts[0], opt)
	}
	if opt.Pivot == "" {
		opt.Pivot = "en"
	}
	dirs, err := suiteDirections(s, opt.Directions, &opt)
	if err != nil {
		return nil, err
	}
	res := &MatrixResult{TestSet: s.Dir, Pivot: opt.Pivot}
	for i, p := range s.Parts {
		if len(dirs[i]) == 0 {
			continue
		}
		o := opt
		o.Directions = dirs[i]
		if opt.HypDir != "" {
			o.HypDir = filepath.Join(opt.HypDir, p.Name)
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "test set %s (%s, %d lines)\n", p.Name, strings.Join(p.Languages(), ", "), p.Len())
		}
		r, err := EvalMatrix(ctx, tr, p, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name, err)
		}
		res.Detector, res.DetectorFallback = r.Detector, r.DetectorFallback
		for _, row := range r.Directions {
			row.Part, row.Hyp = p.Name, partKey(p.Name, row.Hyp)
			res.Directions = append(res.Directions, row)
		}
		res.Parts = append(res.Parts, SuitePart{Name: p.Name, Dir: p.Dir, Lines: p.Len(), Languages: p.Languages()})
	}
	res.Supervised, res.ZeroShot, res.PivotZeroShot = Averages(res.Directions)
	return res, nil
}
