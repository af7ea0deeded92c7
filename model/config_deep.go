package model

import "fmt"

// DeepConfig holds the options of the deep architectures (MSC, DLCL,
// transparent attention). Only the fields of the chosen arch are used.
type DeepConfig struct {
	// Blocks is the number of encoder blocks N for MSC (= decoder layers).
	Blocks int `yaml:"blocks"`
	// WeightDropout is dropout on transparent-attention weights.
	WeightDropout float32 `yaml:"weight_dropout"`
}

func defaultDeep() DeepConfig { return DeepConfig{} }

func (c *Config) validateArch() error {
	switch c.Arch {
	case "transformer":
		return nil
	default:
		return fmt.Errorf("model: unknown arch %q", c.Arch)
	}
}
