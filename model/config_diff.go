package model

import (
	"fmt"
	"reflect"
	"strings"
)

// Diff lists the fields (by their YAML names, nested ones dotted) whose
// values differ between c and o, as "name: c's value → o's value", in
// declaration order; nil when the configs are equal. Training-only fields
// differ freely between a run and its resumption, so callers that compare
// architectures use ArchDiff.
func (c Config) Diff(o Config) []string {
	return diffStruct("", reflect.ValueOf(c), reflect.ValueOf(o))
}

// ArchDiff is Diff restricted to what SameArchitecture compares: the
// preset name, the dropout rates and the vocabulary hash (a property of the
// data, compared with it, and absent from models saved before it was
// recorded) are left out.
func (c Config) ArchDiff(o Config) []string {
	a, b := c, o
	for _, x := range []*Config{&a, &b} {
		x.Preset, x.Dropout, x.AttentionDropout, x.ActivationDropout = "", 0, 0, 0
		x.Deep.WeightDropout = 0
		x.VocabHash = ""
	}
	return a.Diff(b)
}

func diffStruct(prefix string, a, b reflect.Value) []string {
	var out []string
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		name := yamlName(t.Field(i))
		if name == "" || name == "-" {
			name = strings.ToLower(t.Field(i).Name)
		}
		x, y := a.Field(i), b.Field(i)
		if x.Kind() == reflect.Struct {
			out = append(out, diffStruct(prefix+name+".", x, y)...)
			continue
		}
		if !reflect.DeepEqual(x.Interface(), y.Interface()) {
			out = append(out, fmt.Sprintf("%s%s: %v → %v", prefix, name, x.Interface(), y.Interface()))
		}
	}
	return out
}
