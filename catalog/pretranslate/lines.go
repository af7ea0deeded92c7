package pretranslate

import "context"

// Lines translates a file of one string a line with its placeholders
// protected, as a catalogue's strings are: each output line is the
// translation, or empty where the translation lost, duplicated or
// reordered a placeholder (reported, never written). It serves strings
// taken out of a catalogue, such as a test set of them.
func Lines(ctx context.Context, tr Translator, name string, lines []string, o Options) ([]string, *Report, error) {
	outs, err := Strings(ctx, tr, lines, o)
	if err != nil {
		return nil, nil, err
	}
	r := &Report{Name: name, Units: len(lines)}
	res := make([]string, len(lines))
	for i, out := range outs {
		if lines[i] == "" {
			continue
		}
		r.Candidates++
		if out.Err != nil {
			r.Failed = append(r.Failed, Failure{Line: i + 1, ID: lines[i], Err: out.Err})
			continue
		}
		r.Translated++
		res[i] = out.Text
	}
	return res, r, nil
}
