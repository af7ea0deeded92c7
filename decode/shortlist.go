package decode

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Shortlist is a lexical shortlist (Marian's --shortlist, CTranslate2's
// vocabulary map): for each source token the target tokens most associated
// with it in the training data, plus the most frequent target tokens. A
// batch is decoded over the union of its sources' lists only: the output
// layer computes those rows and every other token gets probability 0.
type Shortlist struct {
	// Header describes how the list was learned.
	Header ShortlistHeader
	// Frequent are the target tokens always allowed.
	Frequent []int32
	// BySource[s] are the K tokens learned for source token s (nil for
	// tokens never seen, tags and specials).
	BySource [][]int32
}

// ShortlistHeader is the first line of a shortlist file (JSON).
type ShortlistHeader struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	K        int    `json:"k"`
	Frequent int    `json:"frequent"`
	Score    string `json:"score"`
	// Vocab is the vocabulary size and DataKey the manifest key of the
	// data directory the ids refer to.
	Vocab   int    `json:"vocab"`
	DataKey string `json:"data_key,omitempty"`
	// Pairs is the number of sentence pairs the list was learned from.
	Pairs int `json:"pairs"`
}

const shortlistFormat = "strata-shortlist"

// Rows returns the sorted union of the tokens allowed for a batch of
// encoder inputs: the frequent tokens, EOS and <unk>, and every source
// token's list.
func (s *Shortlist) Rows(srcs [][]int32) []int32 {
	seen := make([]bool, s.Header.Vocab)
	add := func(ids []int32) {
		for _, t := range ids {
			seen[t] = true
		}
	}
	add(s.Frequent)
	add([]int32{data.EOSID, data.UNKID})
	for _, src := range srcs {
		for _, t := range src {
			if int(t) < len(s.BySource) {
				add(s.BySource[t])
			}
		}
	}
	var rows []int32
	for t, ok := range seen {
		if ok {
			rows = append(rows, int32(t))
		}
	}
	return rows
}

// Save writes the shortlist atomically: the JSON header, a line of the
// frequent ids, then one line "SOURCE<TAB>TARGET TARGET ..." per source
// token with a list.
func (s *Shortlist) Save(path string) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		h, err := json.Marshal(s.Header)
		if err != nil {
			return err
		}
		bw.Write(h)
		bw.WriteString("\n")
		writeIDs(bw, s.Frequent)
		bw.WriteString("\n")
		for src, ids := range s.BySource {
			if len(ids) == 0 {
				continue
			}
			bw.WriteString(strconv.Itoa(src))
			bw.WriteString("\t")
			writeIDs(bw, ids)
			bw.WriteString("\n")
		}
		return bw.Flush()
	})
}

func writeIDs(w *bufio.Writer, ids []int32) {
	for i, t := range ids {
		if i > 0 {
			w.WriteString(" ")
		}
		w.WriteString(strconv.Itoa(int(t)))
	}
}

// LoadShortlist reads a file written by Save.
func LoadShortlist(path string) (*Shortlist, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, a...))
	}
	s := &Shortlist{}
	for sc.Scan() {
		line++
		text := sc.Text()
		switch line {
		case 1:
			if err := json.Unmarshal([]byte(text), &s.Header); err != nil || s.Header.Format != shortlistFormat {
				return nil, bad("expected a JSON header with \"format\": %q (write the file with strata shortlist)", shortlistFormat)
			}
			if s.Header.Version != 1 || s.Header.Vocab <= 0 {
				return nil, bad("unsupported version %d or vocabulary size %d", s.Header.Version, s.Header.Vocab)
			}
			s.BySource = make([][]int32, s.Header.Vocab)
		case 2:
			if s.Frequent, err = parseIDs(text, s.Header.Vocab); err != nil {
				return nil, bad("frequent tokens: %v", err)
			}
		default:
			src, rest, ok := strings.Cut(text, "\t")
			id, err := strconv.Atoi(src)
			if !ok || err != nil || id < 0 || id >= s.Header.Vocab {
				return nil, bad("expected SOURCE_ID<TAB>TARGET_IDS with an id below %d, got %.40q", s.Header.Vocab, text)
			}
			if s.BySource[id], err = parseIDs(rest, s.Header.Vocab); err != nil {
				return nil, bad("source %d: %v", id, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if line < 2 {
		return nil, fmt.Errorf("%s: truncated shortlist (%d lines, need a header and the frequent tokens)", path, line)
	}
	return s, nil
}

func parseIDs(text string, vocab int) ([]int32, error) {
	var ids []int32
	for _, f := range strings.Fields(text) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 || v >= vocab {
			return nil, fmt.Errorf("token id %q is not between 0 and %d", f, vocab-1)
		}
		ids = append(ids, int32(v))
	}
	return slices.Clip(ids), nil
}

// shortlists caches loaded shortlists by path: serve's workers and an
// ensemble's searchers share one.
var shortlists sync.Map

type shortlistEntry struct {
	once sync.Once
	s    *Shortlist
	err  error
}

func cachedShortlist(path string) (*Shortlist, error) {
	e, _ := shortlists.LoadOrStore(path, &shortlistEntry{})
	en := e.(*shortlistEntry)
	en.once.Do(func() { en.s, en.err = LoadShortlist(path) })
	return en.s, en.err
}

// checkShortlist refuses a shortlist learned on another data directory
// than the bundle's (same vocabulary size, other token ids).
func (b *Bundle) checkShortlist(opt Options) error {
	if opt.Shortlist == "" || b.DataDir == "" {
		return nil
	}
	sl, err := cachedShortlist(opt.Shortlist)
	if err != nil || sl.Header.DataKey == "" {
		return err
	}
	man, err := data.ReadManifest(b.DataDir)
	if err != nil {
		return err
	}
	if man.Key != sl.Header.DataKey {
		return fmt.Errorf("%s was learned on another data directory than %s (manifest key %.12s…, the shortlist's %.12s…): its token ids do not match",
			opt.Shortlist, b.DataDir, man.Key, sl.Header.DataKey)
	}
	return nil
}
