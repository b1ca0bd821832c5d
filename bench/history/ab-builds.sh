#!/usr/bin/env bash
# Two builds of the CLI (libs/engine/dist-old, libs/engine/dist) on pairs of the accuracy files, alternating pair by
# pair, the order flipped each sitting: sitting, pair, build, verdict, manifest hash (16 characters), wall seconds,
# peak RSS MB (bench/accuracy/maxrss.cjs). Repositories: mirrors under LINEAGE_BENCH_MIRRORS (default ../.mirror), else
# bare clones of the shared bundles under LINEAGE_BUNDLE_CLONES (default /tmp/bundles: `git clone --bare X.bundle`).
#
#   bash bench/history/ab-builds.sh SITTINGS PAIR...
set -uo pipefail
cd "$(dirname "$0")/../.."
mirrors=${LINEAGE_BENCH_MIRRORS:-../.mirror}
clones=${LINEAGE_BUNDLE_CLONES:-/tmp/bundles}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sit=$1
shift
loc() { local r=${1/\//+}; for p in $mirrors/$r/repo $mirrors/$r.git $clones/$r.git; do [ -e "$p" ] && { echo "$p"; return; }; done; }
for s in $(seq 1 $sit); do
  for name in "$@"; do
    line=$(cat bench/accuracy/pairs.tsv bench/accuracy/heldout/*.tsv ../shared/real-repos/pairs.tsv | awk -F'\t' -v n="$name" '$1==n' | head -1)
    IFS=$'\t' read -r _ o oc t tc _ <<< "$line"
    O=$(loc $o); T=$(loc $t)
    if [ $((s % 2)) -eq 1 ]; then builds="dist-old dist"; else builds="dist dist-old"; fi
    for b in $builds; do
      rm -f "$tmp/rss"
      st=$(date +%s.%N)
      LINEAGE_ACCURACY_RSS_FILE="$tmp/rss" node -r ./bench/accuracy/maxrss.cjs libs/engine/$b/cli.js analyze "$O" "$T" --origin-ref $oc --target-ref $tc --json > "$tmp/out.json" 2>/dev/null
      en=$(date +%s.%N)
      v=$(node -e 'try{const j=require(process.argv[1]);console.log(j.verdict+"\t"+j.manifestHash.slice(0,16))}catch{console.log("ERROR\t-")}' "$tmp/out.json")
      printf '%s\t%s\t%s\t%s\t%.2f\t%s\n' "$s" "$name" "$b" "$v" "$(echo "$en - $st" | bc)" $(( $(cat "$tmp/rss" 2>/dev/null || echo 0) / 1024 ))
    done
  done
done
