#!/usr/bin/env bash
# The engine's CLI at two or more git revisions, run alternately on one pair in one sitting (wall times on a
# shared machine drift by more than most changes make): medians of wall time, CPU time (user + system, git's
# included) and peak RSS, and each run's manifest hash (the revisions must agree unless a change means to differ).
#
#   bash bench/history/ab.sh RUNS PAIR REV...        e.g.  bash bench/history/ab.sh 6 redis-valkey e835b7f HEAD
#
# Runs leave out NODE_EXTRA_CA_CERTS, as run.ts does (Node would read that CA bundle at each start; see run.ts).
# REV `.` is this checkout's own build (libs/engine/dist, after `make build`), uncommitted changes included.
# Each revision's engine is built once in a worktree under .cache/ab/<commit> (node_modules shared with this
# checkout). PAIR: redis-valkey | uglify-terser (mirrors under LINEAGE_BENCH_MIRRORS, default ../.mirror, as for
# run.ts) or axios-redaxios | coco-hard-fork (the shared bundles, cloned by run.ts into .cache/bench-history/repos).
set -euo pipefail
runs=$1 pair=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
mirrors=${LINEAGE_BENCH_MIRRORS:-$root/../.mirror}
repos=$root/.cache/bench-history/repos
mirror() { if [ -d "$mirrors/$1/repo" ]; then echo "$mirrors/$1/repo"; else echo "$mirrors/$1.git"; fi; }
case $pair in
  redis-valkey) args=("$(mirror redis+redis)" "$(mirror valkey-io+valkey)" --origin-ref 4f8cdc2a1ea53e42955af758aabffee67cb455dd --target-ref 55bbbe09a3b37a98c907dbfbc225768ff253e84f) ;;
  uglify-terser) args=("$(mirror mishoo+UglifyJS)" "$(mirror terser+terser)" --origin-ref 111746bbae5f55c88e3b82b42f14fd0f3129ea53 --target-ref 9fc8a85aaa7087d2b8c9b4b31d267202b731b5f1) ;;
  axios-redaxios) args=("$repos/axios+axios.git" "$repos/developit+redaxios.git" --origin-ref 23a25af0688d1db2c396deb09229d2271cc24f6c --target-ref ad40de9175109bbe144fd2ab81a001132f437184) ;;
  coco-hard-fork) args=("$repos/jashkenas+coffeescript.git" "$repos/satyr+coco.git" --origin-ref 817c39a13065a900725943c33a79252a69d779e2 --target-ref f8160faf681cde6ceca11e2d58b0818f8772a4c9) ;;
  *) echo "unknown pair: $pair" >&2; exit 2 ;;
esac
for a in "${args[@]:0:2}"; do [ -d "$a" ] || { echo "missing repository: $a (see bench/history/README.md)" >&2; exit 2; }; done

clis=()
for rev in "$@"; do
  if [ "$rev" = . ]; then # this checkout's own build (libs/engine/dist), uncommitted changes included
    clis+=("$root/libs/engine/dist/cli.js")
    continue
  fi
  commit=$(git -C "$root" rev-parse --verify "$rev^{commit}")
  tree=$root/.cache/ab/$commit
  if [ ! -f "$tree/libs/engine/dist/cli.js" ]; then
    rm -rf "$tree"
    git -C "$root" worktree prune
    git -C "$root" worktree add --detach --force "$tree" "$commit" > /dev/null
    ln -s "$root/node_modules" "$tree/node_modules"
    (cd "$tree" && "$root/node_modules/.bin/tsc" -p libs/engine)
  fi
  clis+=("$tree/libs/engine/dist/cli.js")
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq "$runs"); do
  for i in "${!clis[@]}"; do
    env -u NODE_EXTRA_CA_CERTS /usr/bin/time -f "%e %U %S %M" -a -o "$out/$i.time" node "${clis[$i]}" analyze "${args[@]}" --json > "$out/run.json"
    node -e "process.stdout.write(require('$out/run.json').manifestHash.slice(0, 12) + ' ')"
  done
done
echo
revs=("$@")
for i in "${!clis[@]}"; do
  sort -n "$out/$i.time" | awk -v r="${revs[$i]}" '{ w[NR] = $1; c[NR] = $2 + $3; m[NR] = $4 }
    END { n = NR; asort(c); asort(m); k = int((n + 1) / 2)
      printf "%-12s wall median %.2f s (min %.2f) | CPU median %.2f s | peak RSS median %d MB (%d runs)\n", r, w[k], w[1], c[k], m[k] / 1024, n }'
done
