#!/bin/sh
# Side-by-side decoding benchmark: the PyTorch reference with its own cached
# incremental beam search (bench/reference/decode_transformer.py) and strata
# (bench/decode), same model shape, same random sources (the reference dumps
# them; strata decodes that file), beam 5, batch 32, max_len 1.2*S+10,
# 2 threads each. Prints both JSON lines, the tokens/s and peak-RSS ratios,
# and the floor: strata's matrix products of the run replayed alone
# (--gemm-floor), the ceiling of any implementation making them on this BLAS.
#
#   sh bench/decode/run.sh            # 500 sentences, as the spec asks
#   SENTENCES=64 sh bench/decode/run.sh
set -eu
cd "$(dirname "$0")/../.."
N=${SENTENCES:-500}
THREADS=${THREADS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/decode" ./bench/decode
/usr/bin/python3 bench/reference/decode_transformer.py --sentences "$N" --threads "$THREADS" \
	--dump-sources "$tmp/sources.txt" >"$tmp/ref.json" 2>"$tmp/ref.log"
"$tmp/decode" --sources "$tmp/sources.txt" --threads "$THREADS" --gemm-floor >"$tmp/strata.json" 2>"$tmp/strata.log"
cat "$tmp/ref.json" "$tmp/strata.json"
/usr/bin/python3 - "$tmp/ref.json" "$tmp/strata.json" <<'PY'
import json, sys
ref, st = (json.load(open(p)) for p in sys.argv[1:])
print(f"strata/pytorch target tokens/s: {st['tokens_per_s'] / ref['tokens_per_s']:.2f}x "
      f"({st['tokens_per_s']} vs {ref['tokens_per_s']}; generated {st['generated_tokens']} vs {ref['generated_tokens']})")
print(f"ceiling: strata's matrix products alone run at {st['gemm_floor_tokens_per_s']} tok/s, "
      f"{st['gemm_floor_tokens_per_s'] / ref['tokens_per_s']:.2f}x PyTorch; strata reaches "
      f"{st['tokens_per_s'] / st['gemm_floor_tokens_per_s']:.0%} of it")
print(f"strata/pytorch peak RSS: {st['peak_rss_mb'] / ref['peak_rss_mb']:.2f}x "
      f"({st['peak_rss_mb']} vs {ref['peak_rss_mb']} MB)")
PY
