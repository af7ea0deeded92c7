# Sourced by the recipes (experiments/*/): reading the one-line JSON records
# that strata prints (eval --json, status --json) without a JSON tool.

# json_num KEY: the number after "KEY": in the one-line JSON object on stdin
# (its last one).
json_num() { sed -n "s/.*\"$1\": *\([-0-9.eE+]*\).*/\1/p" | tail -n 1; }
