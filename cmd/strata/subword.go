package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/textio"
)

// subwordFlags are the options of `strata subword encode|decode`.
type subwordFlags struct {
	dataDir, input, output string
	ids                    bool
}

func init() {
	parent := &cobra.Command{
		Use:   "subword",
		Short: "Split text into a data directory's subword pieces, or join pieces back into text (spm_encode, spm_decode)",
		Long: `encode splits each input line into the pieces of a data directory's joint BPE
(strata prepare's, or a model's data/), one line of space-separated pieces per
line, or with --ids their token ids, as the model sees them (no language tag,
no </s>). decode joins pieces (or --ids) back into text: decode(encode(x)) is x
for every line. Input is a file, plain or gzip, or standard input; the output
is standard output or a file written atomically.

  strata subword encode --data models/l10n-en-de/data <<< "Open the file."
  strata subword encode --data runs/data/l10n-en-de -i test.en | strata subword decode --data runs/data/l10n-en-de`,
	}
	for _, encode := range []bool{true, false} {
		var f subwordFlags
		use, short := "encode --data DIR [-i IN] [-o OUT] [--ids]", "Split text into subword pieces (or token ids)"
		if !encode {
			use, short = "decode --data DIR [-i IN] [-o OUT] [--ids]", "Join subword pieces (or token ids) back into text"
		}
		cmd := &cobra.Command{
			Use: use, Short: short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return runSubword(cmd, f, encode) },
		}
		fl := cmd.Flags()
		fl.StringVar(&f.dataDir, "data", "", "prepared data directory whose BPE and vocabulary to use")
		fl.StringVarP(&f.input, "input", "i", "-", "input file, plain or gzip (- for standard input)")
		fl.StringVarP(&f.output, "output", "o", "-", "output file (- for standard output; written atomically)")
		fl.BoolVar(&f.ids, "ids", false, "token ids instead of pieces")
		parent.AddCommand(cmd)
	}
	rootCmd.AddCommand(parent)
}

// runSubword encodes or decodes the input line by line.
func runSubword(cmd *cobra.Command, f subwordFlags, encode bool) error {
	if f.dataDir == "" {
		return fmt.Errorf("subword: --data is required (a prepared data directory)")
	}
	v, _, err := decode.OpenVocab(f.dataDir)
	if err != nil {
		return err
	}
	in, err := textio.OpenFrom(f.input, cmd.InOrStdin())
	if err != nil {
		return fmt.Errorf("subword: %w", err)
	}
	defer in.Close()
	name := textio.Name(f.input)
	convert := decodeLine(v, f.ids)
	if encode {
		convert = encodeLine(v, f.ids)
	}
	return writeOutput(cmd, f.output, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		lr := textio.NewLineReader(in, name)
		for n := 1; ; n++ {
			line, err := lr.Next()
			if err == io.EOF {
				return bw.Flush()
			}
			if err == nil {
				err = textio.CheckUTF8(name, n, line)
			}
			if err != nil {
				return err
			}
			out, err := convert(line)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", name, n, err)
			}
			bw.WriteString(out)
			bw.WriteByte('\n')
		}
	})
}

// encodeLine splits a line into pieces, or token ids.
func encodeLine(v *data.Vocab, ids bool) func(string) (string, error) {
	enc := v.NewEncoder()
	var buf []int32
	return func(line string) (string, error) {
		buf = enc.Encode(buf[:0], line)
		toks := make([]string, len(buf))
		for i, id := range buf {
			if ids {
				toks[i] = strconv.Itoa(int(id))
			} else {
				toks[i] = v.Token(id)
			}
		}
		return strings.Join(toks, " "), nil
	}
}

// decodeLine joins a line of pieces, or token ids, into text.
func decodeLine(v *data.Vocab, ids bool) func(string) (string, error) {
	return func(line string) (string, error) {
		fields := strings.Fields(line)
		toks := make([]int32, len(fields))
		for i, s := range fields {
			var id int32
			var ok bool
			if ids {
				n, err := strconv.Atoi(s)
				id, ok = int32(n), err == nil && n >= 0 && n < v.Size()
			} else {
				id, ok = v.TokenID(s)
			}
			if !ok {
				return "", fmt.Errorf("%q is not a %s of the vocabulary (%d tokens)", s, map[bool]string{false: "piece", true: "token id"}[ids], v.Size())
			}
			toks[i] = id
		}
		return v.Decode(toks), nil
	}
}
