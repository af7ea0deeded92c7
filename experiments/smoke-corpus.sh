# Sourced by the en→de study scripts (experiments/en-de/run.sh,
# experiments/msc/run.sh) in smoke mode.

# smoke_corpus TRAIN_LINES: the first TRAIN_LINES pairs of l10n en→de
# (L10N) with 60 dev and 40 test lines in WORK/smoke-corpus, and a corpus
# config for strata prepare (BPE with MERGES merges), so that every stage
# of a study runs in seconds; points CONFIG, DEV_* and TEST_* at them.
smoke_corpus() {
	local s=$WORK/smoke-corpus l
	mkdir -p "$s"
	if [ ! -s "$s/train.tsv" ]; then
		# head closes the pipe early: zcat's SIGPIPE is expected
		(set +o pipefail; zcat "$L10N/train/en-de.tsv.gz" | head -n "$1") >"$s/train.tsv.tmp"
		mv "$s/train.tsv.tmp" "$s/train.tsv"
	fi
	for l in en de; do
		[ -s "$s/dev.$l" ] || head -n 60 "$L10N/dev/dev.$l" >"$s/dev.$l"
		[ -s "$s/test.$l" ] || head -n 40 "$L10N/test/test.$l" >"$s/test.$l"
	done
	cat >"$s/config.yaml" <<-EOF2
		root: .
		languages: [en, de]
		tags: none
		bpe: {merges: $MERGES}
		max_len: 256
		splits:
		  train: [{pair: en-de, path: train.tsv}]
		  valid: [{pair: en-de, src: dev.en, tgt: dev.de}]
	EOF2
	CONFIG=$s/config.yaml DEV_SRC=$s/dev.en DEV_REF=$s/dev.de TEST_SRC=$s/test.en TEST_REF=$s/test.de
}
