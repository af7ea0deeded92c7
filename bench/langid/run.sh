#!/usr/bin/env bash
# Throughput of `strata langid` against `fasttext predict-prob` (Debian's
# fasttext CLI) on the same input, side by side in the same run.
#
# Input: every FLORES-200 devtest and l10n test line of the ten languages,
# concatenated and repeated to at least LINES lines (default 50000).
# Usage: bench/langid/run.sh [LINES] [K] [REPS]   (from the repository root)
set -euo pipefail
lines=${1:-50000}
k=${2:-1}
reps=${3:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(cd "$root/.." && pwd)/shared
model=$shared/models/lid.176.ftz
command -v fasttext >/dev/null || { echo "fasttext CLI not installed (apt-get install fasttext)" >&2; exit 1; }
[ -f "$model" ] || { echo "$model not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$shared"/data/flores200-devtest/*.devtest "$shared"/data/l10n/test/test.* > "$work/once.txt"
: > "$work/in.txt"
while [ "$(wc -l < "$work/in.txt")" -lt "$lines" ]; do
	cat "$work/once.txt" >> "$work/in.txt"
done
n=$(wc -l < "$work/in.txt")
(cd "$root" && go build -o "$work/strata" ./cmd/strata)

# Wall-clock seconds of one run; output goes to a file so both pay for it.
timeit() {
	local start end
	start=$(date +%s.%N)
	"$@" > "$work/out.txt" 2>/dev/null
	end=$(date +%s.%N)
	echo "$end - $start" | bc -l
}

echo "input: $n lines ($(du -h "$work/in.txt" | cut -f1)), k=$k, $(nproc) CPUs, $reps runs each, interleaved"
ft=(); go=(); g1=()
for _ in $(seq "$reps"); do
	ft+=("$(timeit fasttext predict-prob "$model" "$work/in.txt" "$k")")
	cp "$work/out.txt" "$work/ft.txt"
	g1+=("$(timeit "$work/strata" langid --model "$model" --k "$k" --workers 1 "$work/in.txt")")
	go+=("$(timeit "$work/strata" langid --model "$model" --k "$k" "$work/in.txt")")
done
cmp -s "$work/ft.txt" "$work/out.txt" && same="byte-identical" || same="DIFFERENT ($(cmp "$work/ft.txt" "$work/out.txt" | head -1))"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
report() { # name, times...
	local name=$1 m
	shift
	m=$(median "$@")
	printf '%-32s median %7.3f s  %8.0f lines/s  ratio %.2f  runs: %s\n' "$name" "$m" "$(echo "$n / $m" | bc -l)" \
		"$(echo "$(median "${ft[@]}") / $m" | bc -l)" "$*"
}
echo "(ratio = fasttext median time / this median time; > 1 means faster than fasttext)"
report "fasttext predict-prob" "${ft[@]}"
report "strata langid --workers 1" "${g1[@]}"
report "strata langid (all CPUs)" "${go[@]}"
echo "outputs: $same"
