#!/bin/sh
# Data-parallel benchmark (docs/distributed.md), on one machine:
#  1. training throughput of the msc-small 6+6 d=256 model at the same
#     global batch, 2 ranks x 1 thread (mpirun -np 2, update-freq 1) against
#     1 process x 2 threads (update-freq 2), alternating for --rounds rounds
#     because the machine is shared;
#  2. MPI_Allreduce time of 10M, 45M and 200M float32 parameters between 2
#     ranks over shared memory (Open MPI's vader BTL, the default between
#     ranks of one machine) and over TCP on the loopback interface (what
#     the bytes cost through a network stack).
#
#   bench/distributed/run.sh [--rounds N] [--updates N] [--sizes LIST] [--reps N]
set -eu
cd "$(dirname "$0")/../.."
rounds=2 updates=8 sizes=10e6,45e6,200e6 reps=3
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--updates) updates=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--rounds N] [--updates N] [--sizes LIST] [--reps N]" >&2; exit 2 ;;
	esac
done
command -v mpirun >/dev/null || { echo "run.sh: mpirun not found (apt-get install openmpi-bin libopenmpi3)" >&2; exit 1; }
bin=$(mktemp -d)/distributed-bench
go build -o "$bin" ./bench/distributed
mpi="mpirun -np 2 --oversubscribe"
[ "$(id -u)" = 0 ] && mpi="$mpi --allow-run-as-root"
scratch=$(mktemp -d)
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
	rm -rf "$scratch"/*
	BENCH_DIR=$scratch/a $mpi -x BENCH_DIR "$bin" train -threads 1 -update-freq 1 -updates "$updates"
	BENCH_DIR=$scratch/b "$bin" train -threads 2 -update-freq 2 -updates "$updates"
done
for btl in self,vader self,tcp; do
	$mpi --mca btl $btl "$bin" allreduce -sizes "$sizes" -reps "$reps"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$scratch" "$(dirname "$bin")"
