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

// FileFormat is the weight format of the tensor file at path, from its
// header alone: FormatInt8 when it holds int8 matrices (WriteTensorsInt8),
// FormatF32 otherwise.
func FileFormat(path string) (Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return FormatAuto, err
	}
	defer f.Close()
	h, err := readHeader(bufio.NewReader(f))
	if err != nil {
		return FormatAuto, fmt.Errorf("%s: %w", path, err)
	}
	for _, e := range h.Tensors {
		if e.DType == dtypeInt8 {
			return FormatInt8, nil
		}
	}
	return FormatF32, nil
}
