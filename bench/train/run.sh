#!/bin/sh
# Side-by-side training throughput: strata (bench/train) against the PyTorch
# reference (bench/reference/train_transformer.py) on the same model and
# batches, each as its own process, alternating for --rounds rounds (the
# machine is shared, so rounds are interleaved and ratios reported).
#
#   bench/train/run.sh [--shape small|base] [--rounds N] [--steps N] [--warmup-steps N]
#                      [--threads N] [--batch-shards W[,W...]] [--no-torch] [--peak-n N] [--replay]
#
# --batch-shards is strata's in-process data parallelism (strata train
# --batch-shards; default 0, its default: one worker per thread). A list
# (e.g. 1,2) runs strata once per setting in every round, interleaved, and
# compares the settings with each other as well as with PyTorch;
# --no-torch leaves PyTorch out (an A/B of strata settings alone).
#
# Shapes (6+6 post-norm layers, shared vocabulary of 8000, random ids):
#   small  d=256, ffn 1024, 4 heads, 64 sentences × 32 tokens (2,048 target tokens)
#   base   d=512, ffn 2048, 8 heads, 128 sentences × 32 tokens (4,096 target tokens),
#          Transformer-base widths
#
# Each round also measures the ceiling in a process of its own (bench/train
# --peak): the cores' float32 FMA peak, the widest fused multiply-add loop
# run on --threads threads at once (internal/ceiling), and, beside it, the
# best N×N×N sgemm through the same OpenBLAS, its threads or row blocks, and
# on strata's own float32 kernel. The step's GFLOP (counted from the model
# shape, bench/train/flops.go, and checked against the products traced in
# strata's first warm-up step) at the FMA peak is the floor of a step; it
# is printed as tokens/s with each implementation's share. A share above
# 100% is never printed: the run names it and says that the FLOP count or
# the ceiling is wrong, and exits 1.
# --replay adds the old diagnostic: strata's own matrix products of one
# step replayed alone, which measures strata's decomposition of the work,
# not the machine.
#
# The reference runs at its best: OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE,
# which a host may set to hold OpenBLAS to one core type's kernels, are
# unset for both processes (strata loads the same OpenBLAS); the kernels
# each side then runs are printed (OpenBLAS's core from
# openblas_get_corename, strata's float32 and weight-gradient kernels), and
# PyTorch's losses beside strata's.
#
# Prints each run's JSON line, then per round and overall (median) target
# tokens/s, peak RSS (max resident set from /usr/bin/time when present, else
# the program's own getrusage figure), the floor and the shares; and the same
# in CPU time (CPU-seconds per step, and the step's GFLOP per CPU-second as
# a share of one core's FMA peak per CPU-second), steadier than wall time
# on a loaded machine.
set -eu
cd "$(dirname "$0")/../.."
rounds=3 steps=10 warmup=2 threads=2 shape=small peakn=4096 replay=0 shards=0 torch=1
while [ $# -gt 0 ]; do
	case "$1" in
	--shape) shape=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--steps) steps=$2; shift 2 ;;
	--warmup-steps) warmup=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--batch-shards) shards=$2; shift 2 ;;
	--no-torch) torch=0; shift ;;
	--peak-n) peakn=$2; shift 2 ;;
	--replay) replay=1; shift ;;
	*) echo "usage: $0 [--shape small|base] [--rounds N] [--steps N] [--warmup-steps N] [--threads N] [--batch-shards W[,W...]] [--no-torch] [--peak-n N] [--replay]" >&2; exit 2 ;;
	esac
done
case "$shape" in
small) model="--dim 256 --ffn-dim 1024 --heads 4 --vocab 8000 --layers 6 --batch-sentences 64 --src-len 32 --tgt-len 32" ;;
base) model="--dim 512 --ffn-dim 2048 --heads 8 --vocab 8000 --layers 6 --batch-sentences 128 --src-len 32 --tgt-len 32" ;;
*) echo "run.sh: --shape is small or base, not $shape" >&2; exit 2 ;;
esac
python=/usr/bin/python3
if [ "$torch" = 1 ] && ! $python -c 'import torch' 2>/dev/null; then
	echo "run.sh: $python cannot import torch (Debian: apt-get install python3-torch)" >&2
	exit 1
fi
# benchmarks only, never tests or CI: the reference's OpenBLAS picks its
# own kernels, as strata's does
was=$(env | grep -E '^OPENBLAS_(CORETYPE|L2_SIZE)=' | tr '\n' ' ' || true)
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
echo "OpenBLAS chooses its own kernels for both processes (unset: ${was:-nothing was set})"
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

shards=$(echo "$shards" | tr ',' ' ')
echo "shape $shape: $model; threads $threads; strata batch shards: $shards (0: one per thread); load average $(cut -d' ' -f1-3 /proc/loadavg)"
common="--steps $steps --warmup-steps $warmup --threads $threads $model"
i=1
while [ "$i" -le "$rounds" ]; do
	# shellcheck disable=SC2086
	GOMAXPROCS=$threads "$tmp/train-bench" --peak "$peakn" --threads "$threads" >"$tmp/peak$i.json" 2>>"$tmp/peak.log"
	cat "$tmp/peak$i.json"
	# shellcheck disable=SC2086
	order=$shards
	if [ $((i % 2)) = 0 ]; then # alternate the order of the settings
		order=$(echo "$shards" | tr ' ' '\n' | sed '1!G;h;$!d' | tr '\n' ' ')
	fi
	for w in $order; do
		# shellcheck disable=SC2086
		GOMAXPROCS=$threads measure "strata${i}_$w" "$tmp/train-bench" $common --batch-shards "$w"
	done
	if [ "$torch" = 1 ]; then
		# shellcheck disable=SC2086
		measure "torch$i" $python bench/reference/train_transformer.py $common
	fi
	if [ "$replay" = 1 ]; then
		# in a process of its own, so that its scratch operands do not
		# count in strata's peak RSS
		# shellcheck disable=SC2086
		GOMAXPROCS=$threads "$tmp/train-bench" $common --batch-shards "${shards%% *}" --gemm-floor >"$tmp/replay$i.json" 2>>"$tmp/replay.log"
	fi
	echo "round $i done; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	i=$((i + 1))
done

$python - "$tmp" "$rounds" "$replay" "$torch" $shards <<'PY'
import json, statistics, sys
tmp, rounds, replay, torch = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4] == "1"
settings = sys.argv[5:]
load = lambda n: json.loads(open(f"{tmp}/{n}.json").read())
med = statistics.median
nan = float("nan")
wrong = []  # shares above 100%: never printed as figures


def share(x, what):
    """x as a percentage, or WRONG (and noted) above 100%: a ceiling that is
    exceeded is not a ceiling, or the work was miscounted."""
    if x != x:
        return "n/a"
    if x > 1:
        wrong.append(what)
        return "WRONG"
    return f"{x:.0%}"


first, p1 = load(f"strata1_{settings[0]}"), load("peak1")
gflop, tokens = first["gflop_per_step"], first["tgt_tokens_per_step"]
print(f"step: {gflop:.1f} GFLOP of matrix products for {tokens} target tokens (checked against strata's traced products)")
print(f"kernels: strata blas {first['blas']}, float32 {first['f32_kernel']}, weight gradient {first['gradw_kernel']}; "
      f"ceiling loop {p1['fma_kernel']}" + (f"; pytorch blas {load('torch1').get('blas', 'not reported')}" if torch else ""))
for i in range(1, rounds + 1):
    p = load(f"peak{i}")
    print(f"round {i} ceiling: FMA peak {p['fma_peak_gflops']:.1f} GFLOP/s on {p['fma_threads']} threads, "
          f"{p['fma_peak_gflops_per_cpu_s']:.1f} per CPU-second on one core; best sgemm {p['n']}³ {p['sgemm_gflops']:.1f} GFLOP/s = "
          + share(p["sgemm_gflops"] / p["fma_peak_gflops"] if p["fma_peak_gflops"] else nan, f"round {i}: sgemm of the FMA peak"))
for w in settings:
    ratios, cratios, mems, sshare, tshare, scpu, tcpu, reps = [], [], [], [], [], [], [], []
    shards = load(f"strata1_{w}")["batch_shards"]
    print(f"strata with {shards} batch shard(s) (--batch-shards {w}):")
    print(f"{'round':>5} {'strata tok/s':>12} {'torch tok/s':>11} {'ratio':>6} {'strata MB':>9} {'torch MB':>8} {'ratio':>6}"
          f" {'FMA GF/s':>9} {'floor tok/s':>11} {'strata/peak':>11} {'torch/peak':>10}"
          f" {'CPU s/step':>10} {'torch':>6} {'ratio':>6} {'GF/CPU-s':>8} {'strata':>6} {'torch':>6}")
    for i in range(1, rounds + 1):
        s, p = load(f"strata{i}_{w}"), load(f"peak{i}")
        t = load(f"torch{i}") if torch else {"tokens_per_s": nan, "peak_rss_mb": nan, "cpu_seconds": nan, "steps": 1}
        peak = p["fma_peak_gflops"] or nan
        floor = tokens / (gflop / peak)
        r, m = s["tokens_per_s"] / t["tokens_per_s"], s["peak_rss_mb"] / t["peak_rss_mb"]
        ratios.append(r); mems.append(m)
        sshare.append(s["tokens_per_s"] / floor); tshare.append(t["tokens_per_s"] / floor)
        # CPU time: a step's GFLOP per CPU-second against one core's FMA
        # peak per CPU-second, the share of the cores' time spent at peak
        sc, tc = s["cpu_seconds"] / s["steps"], t["cpu_seconds"] / t["steps"]
        pc = p["fma_peak_gflops_per_cpu_s"] or nan
        cratios.append(tc / sc); scpu.append(gflop / sc / pc); tcpu.append(gflop / tc / pc)
        print(f"{i:>5} {s['tokens_per_s']:>12.1f} {t['tokens_per_s']:>11.1f} {r:>6.2f} {s['peak_rss_mb']:>9.1f} {t['peak_rss_mb']:>8.1f} {m:>6.2f}"
              f" {peak:>9.1f} {floor:>11.1f} {share(sshare[-1], f'round {i}: strata of the FMA peak'):>11}"
              f" {share(tshare[-1], f'round {i}: pytorch of the FMA peak'):>10}"
              f" {sc:>10.2f} {tc:>6.2f} {cratios[-1]:>6.2f} {pc:>8.1f} {share(scpu[-1], f'round {i}: strata per CPU-second'):>6}"
              f" {share(tcpu[-1], f'round {i}: pytorch per CPU-second'):>6}")
        if torch:
            print(f"      losses (first, last): strata {s['loss_first']}, {s['loss_last']}; pytorch {t['loss_first']}, {t['loss_last']}")
        else:
            print(f"      losses (first, last): strata {s['loss_first']}, {s['loss_last']}")
        if replay and w == settings[0]:
            reps.append(load(f"replay{i}")["gemm_floor_tokens_per_s"] / s["tokens_per_s"])
    if torch:
        print(f"median throughput ratio strata/pytorch {med(ratios):.2f}x (goal >= 1.5), peak RSS ratio {med(mems):.2f} (goal <= 0.75)")
        print(f"median share of the FMA peak (step GFLOP at the cores' measured FMA peak): "
              f"strata {share(med(sshare), 'median strata share')} (goal >= 60%), pytorch {share(med(tshare), 'median pytorch share')}")
        print(f"CPU time: pytorch needs {med(cratios):.2f}x strata's CPU-seconds per step; share of one core's FMA peak per "
              f"CPU-second: strata {share(med(scpu), 'median strata CPU share')}, pytorch {share(med(tcpu), 'median pytorch CPU share')}")
    else:
        print(f"median strata share of the FMA peak {share(med(sshare), 'median strata share')}, "
              f"of one core's FMA peak per CPU-second {share(med(scpu), 'median strata CPU share')}")
    if reps:
        print(f"diagnostic (strata's own decomposition): its step's products replayed alone run at "
              f"{med(reps):.2f}x strata's step throughput")
if len(settings) > 1:
    a = settings[0]
    for b in settings[1:]:
        tp = [load(f"strata{i}_{b}")["tokens_per_s"] / load(f"strata{i}_{a}")["tokens_per_s"] for i in range(1, rounds + 1)]
        cp = [load(f"strata{i}_{a}")["cpu_seconds"] / load(f"strata{i}_{b}")["cpu_seconds"] for i in range(1, rounds + 1)]
        rs = [load(f"strata{i}_{b}")["peak_rss_mb"] / load(f"strata{i}_{a}")["peak_rss_mb"] for i in range(1, rounds + 1)]
        la = [load(f"strata{i}_{a}")["loss_last"] for i in range(1, rounds + 1)]
        lb = [load(f"strata{i}_{b}")["loss_last"] for i in range(1, rounds + 1)]
        print(f"--batch-shards {b} against {a}, median of rounds: {med(tp):.2f}x the tokens/s, {med(cp):.2f}x fewer CPU-seconds "
              f"per step, {med(rs):.2f}x the peak RSS; last loss {lb[0]} against {la[0]}")
for what in wrong:
    print(f"{what}: above 100% of the ceiling, so the FLOP count or the ceiling is wrong; the figure is not printed")
sys.exit(1 if wrong else 0)
PY
