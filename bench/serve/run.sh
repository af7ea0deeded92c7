#!/bin/sh
# Load benchmark of strata serve on loopback: two servers side by side,
# dynamic batching on and --no-batching (each request decoded whole, on its
# own), on the same cores (DECODERS decoders of THREADS threads each, both
# servers), sent the same requests of 1-20 consecutive l10n test sentences
# from 1, 8, 32 and 128 concurrent clients in interleaved rounds, beam 5;
# prints the model, compute type and the table of docs/performance.md. It
# stops by itself (a bounded number of requests per round) and stops the
# servers with SIGTERM, reporting their exit status and drain.
#
#   sh bench/serve/run.sh                       # models/l10n-en-de, float32 and int8
#   sh bench/serve/run.sh MODEL [DATA_DIR]      # another model (run or model dir)
#   sh bench/serve/run.sh --init DATA_DIR       # a freshly initialised 6+6 d=256 model
#   COMPUTE=int8 CLIENTS=32 REQUESTS=32 DECODERS=1 THREADS=2 sh bench/serve/run.sh
#
# Then the decoder's cost per generated token against batch size (what
# batching can gain at most), 1 thread, float32 and int8:
#
#   go run ./bench/serve/batchcost --compute-type int8
set -eu
cd "$(dirname "$0")/../.."
model=${1:-models/l10n-en-de}
if [ "$model" = --init ]; then
	src="--init --data ${2:?usage: run.sh --init DATA_DIR}"
else
	src="--model $model${2:+ --data $2}"
fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/strata" ./cmd/strata
go build -o "$bin/bench-serve" ./bench/serve
"$bin/strata" env | grep -E '^(cpu|threads|matmul|f32|int8)'
for ct in ${COMPUTE:-float32 int8}; do
	"$bin/bench-serve" --strata "$bin/strata" $src --compute-type "$ct" \
		--decoders "${DECODERS:-$(nproc)}" --threads "${THREADS:-1}" \
		--clients "${CLIENTS:-1,8,32,128}" --requests "${REQUESTS:-16}" \
		--input "${INPUT:-/work/shared/data/l10n/test/test.en}"
	echo
done
