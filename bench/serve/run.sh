#!/bin/sh
# Load benchmark of strata serve on loopback: batching on and off, 1, 8, 32
# and 128 concurrent clients sending 1-20-line requests of the l10n test
# set, beam 5; prints the table of docs/performance.md. It stops by itself
# (a bounded number of requests per round) and stops the servers with
# SIGTERM, reporting their exit status and drain.
#
#   sh bench/serve/run.sh DATA_DIR MODEL   # a trained model (run dir or checkpoint)
#   sh bench/serve/run.sh DATA_DIR         # a freshly initialised 6+6 d=256 model
#   CLIENTS=1,8,32 REQUESTS=16 sh bench/serve/run.sh DATA_DIR
#
# DATA_DIR is the model's data directory (its vocabulary; for the fresh
# model, e.g. the output of `strata prepare` on l10n en-de).
set -eu
cd "$(dirname "$0")/../.."
data=${1:?usage: run.sh DATA_DIR [MODEL]}
if [ $# -ge 2 ]; then model="--model $2"; else model="--init"; fi
exec go run ./bench/serve --data "$data" $model --clients "${CLIENTS:-1,8,32,128}" \
	--requests "${REQUESTS:-8}" --input "${INPUT:-/work/shared/data/l10n/test/test.en}"
