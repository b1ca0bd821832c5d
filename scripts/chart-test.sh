#!/usr/bin/env bash
# Chart and image checks, run by `make test`:
#   build helm + helm-unittest (cached) → helm lint --strict (default and
#   production-like values) → helm-unittest --strict → node tests: offline
#   Kubernetes schema validation of every rendered manifest, security posture,
#   termination, wiring, and static Dockerfile checks.
# Quiet on success (one line per step); prints a step's output when it fails.
# Exits non-zero if any step fails.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
chart=charts/lineage
prod_values="$chart/ci/production-values.yaml"
helm="$root/.tools/bin/helm"
unittest="$root/.tools/bin/helm-unittest"

passed=0
failed=0
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# step NAME SUMMARY_REGEX COMMAND...: runs COMMAND; on success prints the
# last output line matching SUMMARY_REGEX (if any), on failure all output.
step() {
  local name="$1" summary="$2"
  shift 2
  if "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
    local detail=""
    [[ -n "$summary" ]] && detail="$(grep -E "$summary" "$log" | tail -n 1 | sed -E 's/^[#[:space:]]+//')"
    printf 'ok    %-34s %s\n' "$name" "$detail"
  else
    failed=$((failed + 1))
    printf 'FAIL  %s\n' "$name"
    sed 's/^/      /' "$log"
  fi
}

if ! tools/helm/build.sh; then
  echo "chart-test: could not build helm/helm-unittest" >&2
  exit 1
fi

step "helm lint (default values)" 'chart\(s\) linted' "$helm" lint --strict "$chart"
step "helm lint (production values)" 'chart\(s\) linted' "$helm" lint --strict "$chart" --values "$prod_values"
# The binary is run directly (no `helm plugin install`: no network).
step "helm-unittest --strict" '^Tests:' "$unittest" --strict --color=false "$chart"
step "manifests, posture, Dockerfile" '^# pass ' env HELM_BIN="$helm" node --test test/chart/*.test.mjs

echo "chart-test: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
