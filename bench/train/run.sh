#!/bin/sh
# Side-by-side training throughput: strata (bench/train) against the PyTorch
# reference (bench/reference/train_transformer.py) on the same model and
# batches, each as its own process, alternating for --rounds rounds (the
# machine is shared, so rounds are interleaved and ratios reported).
#
#   bench/train/run.sh [--rounds N] [--steps N] [--warmup-steps N] [--threads N]
#
# Prints each run's JSON line, then per round and overall (median) target
# tokens/s, peak RSS (max resident set from /usr/bin/time when present, else
# the program's own getrusage figure) and the strata/PyTorch ratios, and
# the floor: the tokens/s of one step's matrix products replayed alone
# (bench/train --gemm-floor), the ceiling of any implementation on this
# BLAS, as a ratio to PyTorch.
set -eu
cd "$(dirname "$0")/../.."
rounds=3 steps=10 warmup=2 threads=2
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--steps) steps=$2; shift 2 ;;
	--warmup-steps) warmup=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	*) echo "usage: $0 [--rounds N] [--steps N] [--warmup-steps N] [--threads N]" >&2; exit 2 ;;
	esac
done
python=/usr/bin/python3
if ! $python -c 'import torch' 2>/dev/null; then
	echo "run.sh: $python cannot import torch (Debian: apt-get install python3-torch)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/train-bench" ./bench/train

# measure NAME CMD...: run CMD, keep its JSON line in $tmp/NAME.json with
# peak_rss_mb replaced by /usr/bin/time's maximum resident set if available.
measure() {
	name=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$tmp/$name.rss" "$@" >"$tmp/$name.json" 2>"$tmp/$name.log"
		rss_kb=$(tail -n 1 "$tmp/$name.rss")
		$python - "$tmp/$name.json" "$rss_kb" <<'PY'
import json, sys
path, kb = sys.argv[1], int(sys.argv[2])
r = json.loads(open(path).read().strip().splitlines()[-1])
r["self_reported_rss_mb"] = r.get("peak_rss_mb")
r["peak_rss_mb"] = round(kb / 1024, 1)
open(path, "w").write(json.dumps(r) + "\n")
PY
	else
		"$@" >"$tmp/$name.json" 2>"$tmp/$name.log"
	fi
	cat "$tmp/$name.json"
}

common="--steps $steps --warmup-steps $warmup --threads $threads"
i=1
while [ "$i" -le "$rounds" ]; do
	# shellcheck disable=SC2086
	measure "torch$i" $python bench/reference/train_transformer.py $common
	# shellcheck disable=SC2086
	GOMAXPROCS=$threads measure "strata$i" "$tmp/train-bench" $common
	# the floor in a process of its own, so that its scratch operands do
	# not count in strata's peak RSS
	# shellcheck disable=SC2086
	GOMAXPROCS=$threads "$tmp/train-bench" $common --gemm-floor >"$tmp/floor$i.json" 2>>"$tmp/floor.log"
	i=$((i + 1))
done

$python - "$tmp" "$rounds" <<'PY'
import json, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
load = lambda n: json.loads(open(f"{tmp}/{n}.json").read())
ratios, mems, ceils = [], [], []
print(f"{'round':>5} {'strata tok/s':>13} {'torch tok/s':>12} {'ratio':>6} {'strata MB':>10} {'torch MB':>9} {'ratio':>6}"
      f" {'floor tok/s':>12} {'floor/torch':>12}")
for i in range(1, rounds + 1):
    s, t, f = load(f"strata{i}"), load(f"torch{i}"), load(f"floor{i}")
    s["gemm_floor_tokens_per_s"] = f["gemm_floor_tokens_per_s"]
    r, m = s["tokens_per_s"] / t["tokens_per_s"], s["peak_rss_mb"] / t["peak_rss_mb"]
    c = s["gemm_floor_tokens_per_s"] / t["tokens_per_s"]
    ratios.append(r); mems.append(m); ceils.append(c)
    print(f"{i:>5} {s['tokens_per_s']:>13.1f} {t['tokens_per_s']:>12.1f} {r:>6.2f} {s['peak_rss_mb']:>10.1f} {t['peak_rss_mb']:>9.1f} {m:>6.2f}"
          f" {s['gemm_floor_tokens_per_s']:>12.1f} {c:>12.2f}")
print(f"median throughput ratio strata/pytorch {statistics.median(ratios):.2f}x "
      f"(goal >= 2), peak RSS ratio {statistics.median(mems):.2f} (goal <= 1)")
print(f"median ceiling: the step's matrix products alone (same BLAS) run at {statistics.median(ceils):.2f}x "
      f"PyTorch's throughput; no implementation making those products can exceed it")
PY
