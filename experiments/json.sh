# Sourced by the recipes (experiments/*/): reading the one-line JSON records
# that strata prints (eval --json, status --json, metrics.jsonl) without a
# JSON tool, and slimming them for the archives.

# json_num KEY: the number after "KEY": in the one-line JSON object on stdin
# (its last one).
json_num() { sed -n "s/.*\"$1\": *\([-0-9.eE+]*\).*/\1/p" | tail -n 1; }

# float32_digits: the lines on stdin with every decimal number rounded to 7
# significant digits, float32's precision (strata's training figures are
# float32 values and sums that Go prints with up to 17 digits); shorter
# numbers and integers stay as they are. Archived metrics.jsonl files go
# through it: the digits past the 7th are noise that made them twice as
# large (experiments/zero-shot TestArchivedSystemsAreSmall).
float32_digits() {
	awk '{
		out = ""
		while (match($0, /[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?/)) {
			out = out substr($0, 1, RSTART - 1) sprintf("%.7g", substr($0, RSTART, RLENGTH))
			$0 = substr($0, RSTART + RLENGTH)
		}
		print out $0
	}'
}
