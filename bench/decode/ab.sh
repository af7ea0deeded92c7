#!/bin/sh
# A/B of two builds of bench/decode on the same work, alternated ROUNDS
# times (A B, B A, A B, ...) so both see the same background load. Prints
# each run, then per build the median target tokens/s by wall time and per
# CPU-second and the largest peak resident set, the ratios B/A, and whether
# the two produced the same translations (outputs_fnv64; builds without it
# print "-").
#
#   go build -o /tmp/decode-main ./bench/decode        # in a checkout of main
#   go build -o /tmp/decode-new ./bench/decode         # in this one
#   ROUNDS=5 sh bench/decode/ab.sh /tmp/decode-main /tmp/decode-new --sentences 64 --threads 1
set -eu
A=$1
B=$2
shift 2
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then order="A B"; else order="B A"; fi
	for x in $order; do
		if [ "$x" = A ]; then bin=$A; else bin=$B; fi
		"$bin" "$@" 2>/dev/null >"$tmp/$x.$r.json"
		echo "$x round $r: $(cat "$tmp/$x.$r.json")"
	done
	r=$((r + 1))
done
/usr/bin/python3 - "$tmp" "$ROUNDS" <<'PY'
import json, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
res = {}
for x in "AB":
    runs = [json.load(open(f"{d}/{x}.{r}.json")) for r in range(1, rounds + 1)]
    res[x] = dict(
        wall=statistics.median(j["tokens_per_s"] for j in runs),
        cpu=statistics.median(j["generated_tokens"] / j["cpu_seconds"] for j in runs),
        rss=max(j["peak_rss_mb"] for j in runs),
        hashes={j.get("outputs_fnv64", "-") for j in runs},
        kernel=runs[0].get("f32_kernel", "openblas sgemm (unpacked)"))
    print(f"{x}: median {res[x]['wall']:.1f} tokens/s, {res[x]['cpu']:.1f} tokens/CPU-s, peak RSS {res[x]['rss']:.1f} MB, float32 kernel: {res[x]['kernel']}")
print(f"B/A tokens/s: {res['B']['wall'] / res['A']['wall']:.3f}x, tokens/CPU-s: {res['B']['cpu'] / res['A']['cpu']:.3f}x, peak RSS: {res['B']['rss'] / res['A']['rss']:.3f}x")
same = res["A"]["hashes"] == res["B"]["hashes"] and len(res["A"]["hashes"]) == 1
print("translations:", "identical" if same else f"differ: A {sorted(res['A']['hashes'])} B {sorted(res['B']['hashes'])}")
PY
