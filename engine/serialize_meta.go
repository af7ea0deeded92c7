package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/strata-nmt/strata/engine/internal/format"
)

// ReadFileMeta reads only the JSON metadata of a tensor file, without its
// tensors or checksum: enough to learn what a multi-gigabyte checkpoint
// holds (its model configuration, its training state) in microseconds.
func ReadFileMeta(path string, meta any) error {
	h, err := readFileHeader(path)
	if err != nil {
		return err
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
	h, err := readFileHeader(path)
	if err != nil {
		return FormatAuto, err
	}
	return Format(format.Stored(h)), nil
}

// FileTensors lists the tensors of the file at path, in file order, from
// its header alone: their values are not read.
func FileTensors(path string) ([]TensorEntry, error) {
	h, err := readFileHeader(path)
	if err != nil {
		return nil, err
	}
	return h.Tensors, nil
}

// readFileHeader reads the header of the tensor file at path; its errors
// name the file.
func readFileHeader(path string) (format.Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return format.Header{}, err
	}
	defer f.Close()
	h, err := format.ReadHeader(bufio.NewReader(f))
	if err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}
