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

// FileIsInt8 reports whether the tensor file at path holds int8 matrices
// (WriteTensorsInt8), from its header alone.
func FileIsInt8(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h, err := readHeader(bufio.NewReader(f))
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	for _, e := range h.Tensors {
		if e.DType == dtypeInt8 {
			return true, nil
		}
	}
	return false, nil
}
