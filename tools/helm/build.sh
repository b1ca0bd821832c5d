#!/usr/bin/env bash
# Builds helm and helm-unittest from this tools module into <repo>/.tools/bin.
# Skips the build when both binaries exist and are newer than go.sum, so it is
# cheap to call before every chart test. Quiet on success.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$root/.tools/bin"

up_to_date() {
  local b
  for b in helm helm-unittest; do
    [[ -x "$bin/$b" && "$bin/$b" -nt "$here/go.sum" ]] || return 1
  done
}

if up_to_date; then
  exit 0
fi

mkdir -p "$bin"
cd "$here"
helm_version="$(go list -m -f '{{.Version}}' helm.sh/helm/v3)"
# Without these, helm assumes Kubernetes v1.20 for lint and template (as its
# own Makefile does, take the version of the client-go it is built with).
client_go="$(go list -m -f '{{.Version}}' k8s.io/client-go)" # v0.MINOR.PATCH
k8s_minor="$(cut -d. -f2 <<<"$client_go")"
k8s_flags=""
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  k8s_flags+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$k8s_minor"
done
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# -mod=readonly: the build must match the committed go.sum exactly.
if ! {
  go build -mod=readonly -buildvcs=false -trimpath -o "$bin/helm" \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$helm_version$k8s_flags" \
    helm.sh/helm/v3/cmd/helm &&
  go build -mod=readonly -buildvcs=false -trimpath -o "$bin/helm-unittest" -ldflags "-s -w$k8s_flags" \
    github.com/helm-unittest/helm-unittest/cmd/helm-unittest
} >"$log" 2>&1; then
  echo "tools/helm/build.sh: go build failed:" >&2
  cat "$log" >&2
  exit 1
fi
