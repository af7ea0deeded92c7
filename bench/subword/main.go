// Command subword-bench times strata's BPE learner and encoder on a text file
// (one sentence a line), for comparison with SentencePiece's spm_train and
// spm_encode on the same file; run.sh runs both side by side.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/strata-nmt/strata/subword"
)

func main() {
	input := flag.String("input", "", "text file, one sentence a line")
	merges := flag.Int("merges", 32000, "merges to learn")
	model := flag.String("model", "", "write the model here (and skip learning if -encode-only)")
	encodeOnly := flag.Bool("encode-only", false, "load -model instead of learning")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "goroutines")
	learnOnly := flag.Bool("learn-only", false, "stop after learning")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	lines, err := readLines(*input)
	if err != nil {
		log.Fatal(err)
	}
	var m *subword.Model
	if *encodeOnly {
		if m, err = subword.Load(*model); err != nil {
			log.Fatal(err)
		}
	} else {
		t0 := time.Now()
		wc := subword.NewWordCounts()
		wc.AddLines(lines, *workers)
		tCount := time.Since(t0)
		var st subword.LearnStats
		m, st, err = subword.Learn(wc, subword.Options{NumMerges: *merges, CharacterCoverage: 1})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("learn: %d lines, %d distinct words, alphabet %d, %d merges (last count %d): count %.2fs, merges %.2fs, total %.2fs\n",
			len(lines), st.Words, st.Alphabet, st.Merges, st.LastFrequency, tCount.Seconds(), st.Duration.Seconds(), time.Since(t0).Seconds())
		if *model != "" {
			if err := m.Save(*model); err != nil {
				log.Fatal(err)
			}
		}
	}
	if *learnOnly {
		return
	}
	t0 := time.Now()
	out, est := m.EncodeLines(lines, *workers, nil)
	sec := time.Since(t0).Seconds()
	// Write the pieces as spm_encode does, to a discarded buffer, so the
	// comparison includes formatting the output.
	w := bufio.NewWriterSize(discard{}, 1<<20)
	var sb strings.Builder
	for _, ids := range out {
		sb.Reset()
		for j, id := range ids {
			if j > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(m.Piece(id))
		}
		sb.WriteByte('\n')
		w.WriteString(sb.String())
	}
	w.Flush()
	secAll := time.Since(t0).Seconds()
	fmt.Printf("encode: %d lines, %d pieces, %d fallbacks, %.2fs ids (%.0f sent/s), %.2fs with piece text (%.0f sent/s), %d workers\n",
		est.Lines, est.Pieces, est.Fallbacks, sec, float64(len(lines))/sec, secAll, float64(len(lines))/secAll, *workers)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}
