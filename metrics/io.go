package metrics

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// ReadSegments reads one segment per line from path ("-" is standard
// input). Each line loses its terminator ("\n" or "\r\n") and nothing
// else, so trailing spaces reach the metrics as they would in SacreBLEU. A
// line that is not valid UTF-8 is an error naming the file and line.
func ReadSegments(path string) ([]string, error) {
	var r io.Reader = os.Stdin
	name := "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, path
	}
	return readSegments(r, name)
}

func readSegments(r io.Reader, name string) ([]string, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var out []string
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return out, nil
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: line %d: %w", name, lineNo, err)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !utf8.Valid(line) {
			return nil, fmt.Errorf("%s: line %d: not valid UTF-8 (metrics need UTF-8 text)", name, lineNo)
		}
		out = append(out, string(line))
		if err == io.EOF {
			return out, nil
		}
	}
}
