package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// ReadFileMeta reads only the JSON metadata of a tensor file, without its
// tensors or checksum: enough to learn what a multi-gigabyte checkpoint
// holds (its model configuration, its training state) in microseconds.
func ReadFileMeta(path string, meta any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h, err := readHeader(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := json.Unmarshal(h.Meta, meta); err != nil {
		return fmt.Errorf("%s: decode metadata: %w", path, err)
	}
	return nil
}
