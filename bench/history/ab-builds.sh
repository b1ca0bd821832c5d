#!/usr/bin/env bash
# compare-builds.sh on named pairs of the accuracy files, SITTINGS times, the two builds (libs/engine/dist-old,
# libs/engine/dist) in the other order each sitting: each row of compare-builds.sh with its sitting in front.
#
#   bash bench/history/ab-builds.sh SITTINGS PAIR...
set -euo pipefail
cd "$(dirname "$0")/../.."
sit=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
  cat bench/accuracy/pairs.tsv bench/accuracy/heldout/*.tsv ../shared/real-repos/pairs.tsv | awk -F'\t' -v n="$name" '$1==n' | head -1
done >"$tmp/pairs.tsv"
for s in $(seq 1 "$sit"); do
  if [ $((s % 2)) -eq 1 ]; then order=(libs/engine/dist-old libs/engine/dist); else order=(libs/engine/dist libs/engine/dist-old); fi
  bench/history/compare-builds.sh "$tmp/pairs.tsv" "${order[@]}" | sed "s/^/$s\t/"
done
