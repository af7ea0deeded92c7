#!/usr/bin/env bash
# Zero-shot LayerNorm study at small scale (Mao et al., ACL 2023; results in
# docs/results.md, section "Zero-shot: PreNorm vs PostNorm"). On an
# English-centric subset of ../shared/data/l10n (en, de, fr, nl, it, ro) it
# trains PreNorm and PostNorm Transformers with the S-ENC-T-DEC and T-ENC tag
# schemes (and Swap-PreNorm with SWAP=1) on the same budget and seed,
# evaluates every supervised and zero-shot direction (BLEU, chrF, off-target
# rate, pivot through English) on the l10n test set and on FLORES-200
# devtest, and runs layer-wise language recognition (LLR) for the
# S-ENC-T-DEC pair.
#
# Resumable: every stage skips when its output exists; training continues
# from its last checkpoint (--resume) and eval-matrix reuses the hypotheses
# it kept. Rerun the same command to finish an interrupted run.
#
#   experiments/zero-shot/run.sh              # full budget (hours on 2 cores)
#   SMOKE=1 experiments/zero-shot/run.sh      # end-to-end check in minutes
#
# Settings (environment), full-budget defaults:
#   WORK=runs/zero-shot  LANGS="en de fr nl it ro"  PAIRS=20000 (per en-X pair)
#   MERGES=8000  PRESET=msc-small  SET="d_model=128 ffn_dim=512" (6+6 layers
#   as the paper, narrower)  MAX_UPDATE=2000  MAX_TOKENS=4096  LR=1e-3
#   WARMUP=1000  DROPOUT=0.1
#   VALID_LINES=200  EVAL_LINES=300  BEAM=5  LLR_DEV_LINES=300
#   LLR_TEST_LINES=100  SWAP=0  THREADS=0 (all cores)  SEED=1
#   ONLY="pre-senc post-senc" (restrict to these systems)
#   STOP_AFTER=data|train (stop after that stage)
set -euo pipefail
cd "$(dirname "$0")/../.."

SMOKE=${SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
	WORK=${WORK:-runs/zero-shot-smoke}
	: "${PAIRS:=300}" "${MERGES:=300}" "${PRESET:=tiny}" "${SET:=d_model=32 ffn_dim=64 heads=2}"
	: "${MAX_UPDATE:=6}" "${MAX_TOKENS:=800}" "${WARMUP:=2}" "${VALID_LINES:=20}"
	: "${EVAL_LINES:=8}" "${BEAM:=2}" "${LLR_DEV_LINES:=16}" "${LLR_TEST_LINES:=8}" "${SWAP:=1}"
fi
WORK=${WORK:-runs/zero-shot}
LANGS=${LANGS:-en de fr nl it ro}
PAIRS=${PAIRS:-20000}
MERGES=${MERGES:-8000}
PRESET=${PRESET:-msc-small}
SET=${SET-d_model=128 ffn_dim=512}
MAX_UPDATE=${MAX_UPDATE:-2000}
MAX_TOKENS=${MAX_TOKENS:-4096}
LR=${LR:-1e-3}
WARMUP=${WARMUP:-1000}
DROPOUT=${DROPOUT:-0.1}
VALID_LINES=${VALID_LINES:-200}
EVAL_LINES=${EVAL_LINES:-300}
BEAM=${BEAM:-5}
LLR_DEV_LINES=${LLR_DEV_LINES:-300}
LLR_TEST_LINES=${LLR_TEST_LINES:-100}
SWAP=${SWAP:-0}
THREADS=${THREADS:-0}
SEED=${SEED:-1}
SHARED=../shared/data
L10N=$SHARED/l10n
FLORES=$SHARED/flores200-devtest
LID=../shared/models/lid.176.ftz

log() { printf '[zero-shot %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
for d in "$L10N/train" "$L10N/dev" "$L10N/test" "$FLORES"; do
	[ -d "$d" ] || { log "missing $d (the shared data next to the repository)"; exit 2; }
done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

# --- build ----------------------------------------------------------------
STRATA=$WORK/strata
log "building strata"
go build -o "$STRATA" ./cmd/strata

# --- corpus ---------------------------------------------------------------
# PAIRS pairs per en-X corpus, every k-th line (deterministic, spread over
# the whole file, which is ordered by source package); dev subsets for
# validation.
C=$WORK/corpus
mkdir -p "$C"
X_LANGS=()
for l in $LANGS; do [ "$l" = en ] || X_LANGS+=("$l"); done
for x in "${X_LANGS[@]}"; do
	out=$C/en-$x.tsv
	[ -s "$out" ] && continue
	total=$(zcat "$L10N/train/en-$x.tsv.gz" | wc -l)
	step=$((total / PAIRS > 0 ? total / PAIRS : 1))
	log "corpus: $PAIRS of $total en-$x pairs (every ${step}th)"
	(set +o pipefail; zcat "$L10N/train/en-$x.tsv.gz" | awk -v k="$step" 'NR % k == 0' | head -n "$PAIRS") >"$out.tmp"
	mv "$out.tmp" "$out"
done
for l in $LANGS; do
	[ -s "$C/valid.$l" ] || head -n "$VALID_LINES" "$L10N/dev/dev.$l" >"$C/valid.$l"
done
EACH=$(printf '%s, ' "${X_LANGS[@]}")
EACH="[${EACH%, }]"
LANGLIST=$(printf '%s, ' $LANGS)
LANGLIST="[${LANGLIST%, }]"
config() { # tags bpe-line
	cat <<-YAML
		root: .
		languages: $LANGLIST
		tags: $1
		bpe: {$2}
		max_len: 256
		splits:
		  train:
		    - {pair: "en-{x}", path: "en-{x}.tsv", directions: both, each: $EACH}
		  valid:
		    - {pair: "en-{x}", src: valid.en, tgt: "valid.{x}", directions: both, each: $EACH}
	YAML
}
# Both data directories share one BPE model, so the two tag schemes see the
# same subwords.
config S-ENC-T-DEC "merges: $MERGES" >"$C/senc.yaml"
log "data: S-ENC-T-DEC"
"$STRATA" prepare --config "$C/senc.yaml" --out "$WORK/data-senc"
config T-ENC "model: $WORK/data-senc/bpe.json" >"$C/tenc.yaml"
log "data: T-ENC"
"$STRATA" prepare --config "$C/tenc.yaml" --out "$WORK/data-tenc"
[ "${STOP_AFTER:-}" = data ] && { log "stopping after data (STOP_AFTER)"; exit 0; }

# --- training -------------------------------------------------------------
SETARGS=()
for kv in $SET; do SETARGS+=(--set "$kv"); done
# name data norm
SYSTEMS=("pre-senc senc pre" "post-senc senc post" "pre-tenc tenc pre" "post-tenc tenc post")
[ "$SWAP" = 1 ] && SYSTEMS+=("swap-senc senc swap-pre")
# ONLY="pre-senc post-senc" restricts every stage to those systems (a
# shorter run of the paper's central comparison).
if [ -n "${ONLY:-}" ]; then
	kept=()
	for s in "${SYSTEMS[@]}"; do
		for o in $ONLY; do [ "${s%% *}" = "$o" ] && kept+=("$s"); done
	done
	SYSTEMS=("${kept[@]}")
fi
train() {
	local name=$1 data=$WORK/data-$2 norm=$3 dir=$WORK/runs/$1
	if [ -e "$dir/.done" ]; then
		log "train $name: done"
		return
	fi
	log "train $name ($norm, $2): $MAX_UPDATE updates"
	"$STRATA" train --data "$data" --save-dir "$dir" --preset "$PRESET" "${SETARGS[@]}" \
		--set encoder_norm="$norm" --set decoder_norm="$norm" --set dropout="$DROPOUT" \
		--max-update "$MAX_UPDATE" --max-tokens "$MAX_TOKENS" --lr "$LR" --warmup-updates "$WARMUP" \
		--save-interval-updates 500 --validate-interval-updates 500 --log-interval 50 \
		--threads "$THREADS" --seed "$SEED" --resume
	touch "$dir/.done"
}
for s in "${SYSTEMS[@]}"; do
	# shellcheck disable=SC2086 # three words: name data norm
	train $s
done
[ "${STOP_AFTER:-}" = train ] && { log "stopping after training (STOP_AFTER)"; exit 0; }

# --- evaluation matrix ----------------------------------------------------
LANGCSV=$(echo $LANGS | tr ' ' ,)
matrix() { # name testset-name testset-dir
	local out=$WORK/eval/$1/$2
	if [ -s "$out/matrix.json" ]; then
		log "eval-matrix $1 on $2: done"
		return
	fi
	log "eval-matrix $1 on $2 (first $EVAL_LINES lines)"
	"$STRATA" eval-matrix --model "$WORK/runs/$1" --test "$3" --langs "$LANGCSV" --max-lines "$EVAL_LINES" \
		--beam "$BEAM" --lid-model "$LID" --threads "$THREADS" --out "$out" >/dev/null
}
for s in "${SYSTEMS[@]}"; do
	name=${s%% *}
	matrix "$name" l10n "$L10N/test"
	matrix "$name" flores "$FLORES"
done

# --- LLR for the S-ENC-T-DEC pair -----------------------------------------
llr() { # name legend
	local out=$WORK/llr/$1
	if [ -s "$out/llr.json" ]; then
		log "llr $1: done"
		return
	fi
	log "llr $1"
	"$STRATA" analyze llr --model "$WORK/runs/$1" --dev "$L10N/dev" --test "$L10N/test" --langs "$LANGCSV" \
		--max-dev-lines "$LLR_DEV_LINES" --max-test-lines "$LLR_TEST_LINES" --name "$2" \
		--threads "$THREADS" --out "$out" >/dev/null
}
llr pre-senc Pre
llr post-senc Post

# --- summaries ------------------------------------------------------------
S=$WORK/summary
mkdir -p "$S"
for t in l10n flores; do
	args=()
	for s in "${SYSTEMS[@]}"; do
		name=${s%% *}
		args+=("$name=$WORK/eval/$name/$t/matrix.json")
	done
	"$STRATA" eval-matrix table "${args[@]}" >"$S/table-$t.md"
	log "summary ($t test set): $S/table-$t.md"
	cat "$S/table-$t.md" >&2
done
"$STRATA" analyze llr-plot --out "$S/llr" Pre="$WORK/llr/pre-senc/llr.json" Post="$WORK/llr/post-senc/llr.json" >/dev/null
log "LLR figures and table: $S/llr"
log "done; per-direction tables in $WORK/eval/NAME/{l10n,flores}/matrix.md"
