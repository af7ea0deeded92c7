package rundir

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/strata-nmt/strata/internal/textio"
)

// LogFile is the training log a run directory may hold: strata train
// writes its log to standard error, and recipes keep it as RUN/train.log
// (or train.log.gz in an archive).
const LogFile = "train.log"

// logStop returns why the run in dir stopped according to its train.log,
// for runs whose metrics.jsonl predates stop records: the last "done: "
// (or "interrupted at update") line that no later training progress or
// resumption follows. Empty when there is no log or no such line.
func logStop(dir string) (reason, message string, err error) {
	path := filepath.Join(dir, LogFile)
	if !textio.Exists(path) {
		return "", "", nil
	}
	r, err := textio.Open(path)
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	lr := textio.NewLineReader(r, path)
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return reason, message, nil
		} else if err != nil {
			return "", "", fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case strings.HasPrefix(line, "done: "):
			message = strings.TrimPrefix(line, "done: ")
			reason = stopReason(message)
		case strings.HasPrefix(line, "interrupted at update "):
			message, _, _ = strings.Cut(line, ":")
			reason = StopInterrupted
		case strings.HasPrefix(line, "epoch ") || strings.HasPrefix(line, "resumed from "):
			reason, message = "", "" // training went on after it
		}
	}
}

// stopReason is the Stop* code of a "done: " message of the training log.
func stopReason(message string) string {
	switch {
	case strings.HasPrefix(message, "reached max_update"):
		return StopMaxUpdate
	case strings.HasPrefix(message, "reached max_epoch"):
		return StopMaxEpoch
	case strings.HasPrefix(message, "reached the time limit"):
		return StopTimeLimit
	case strings.Contains(message, "did not improve"):
		return StopPatience
	}
	return ""
}
