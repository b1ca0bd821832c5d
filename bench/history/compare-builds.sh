#!/usr/bin/env bash
# Two builds of the engine's CLI on the same pairs, alternating pair by pair: verdict, manifest hash, wall seconds and
# peak RSS (MB, bench/accuracy/maxrss.cjs: worker threads included), one tab-separated row per pair and build.
#
#   cp -r libs/engine/dist libs/engine/dist-old      # at the old commit, after `make build`
#   git checkout <new> && make build
#   bench/history/compare-builds.sh PAIRS.tsv [libs/engine/dist-old libs/engine/dist]
#
# PAIRS.tsv: name, origin owner/name, origin commit, target owner/name, target commit (the first five columns of
# bench/accuracy's pair files); repositories are bare mirrors under LINEAGE_BENCH_MIRRORS (default ../.mirror), else
# bare clones of the shared bundles under LINEAGE_BUNDLE_CLONES (default /tmp/bundles: `git clone --bare X.bundle`).
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=$1
builds=("${2:-libs/engine/dist-old}" "${3:-libs/engine/dist}")
mirrors=${LINEAGE_BENCH_MIRRORS:-../.mirror}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clones=${LINEAGE_BUNDLE_CLONES:-/tmp/bundles}
dir() {
  local r=${1/\//+}
  for d in "$mirrors/$r/repo" "$mirrors/$r.git" "$clones/$r.git"; do [ -e "$d" ] && { echo "$d"; return; }; done
  echo "$mirrors/$r.git"
}
grep -v '^#' "$pairs" | while IFS=$'\t' read -r name o oc t tc _; do
  for b in "${builds[@]}"; do
    rm -f "$tmp/rss"
    s=$(date +%s.%N)
    LINEAGE_ACCURACY_RSS_FILE="$tmp/rss" node -r ./bench/accuracy/maxrss.cjs "$b/cli.js" analyze "$(dir "$o")" "$(dir "$t")" \
      --origin-ref "$oc" --target-ref "$tc" --json >"$tmp/out.json" 2>/dev/null || true
    e=$(date +%s.%N)
    v=$(node -e 'try { const j = require(process.argv[1]); console.log(j.verdict + "\t" + j.manifestHash) } catch { console.log("ERROR\t-") }' "$tmp/out.json")
    printf '%s\t%s\t%s\t%.2f\t%s\n' "$name" "$b" "$v" "$(echo "$e - $s" | bc)" $(($(cat "$tmp/rss" 2>/dev/null || echo 0) / 1024))
  done
done
