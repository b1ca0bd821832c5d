#!/usr/bin/env bash
# Builds the engine's native parser (libs/engine/native): the JavaScript, TypeScript, C, Java and Python grammars, the vendored
# tree-sitter runtime (native/vendor/tree-sitter) and the tokeniser walk, as one Node addon. Run through
# `npm run build:native` (make build does), which puts npm's own node-gyp on PATH.
#
# The grammars' C sources come from the npm tarballs that tree-sitter-wasms built its WASM files from, checked
# against the sha512 below: the addon must parse exactly as those files do (libs/engine/native/README.md).
set -euo pipefail
cd "$(dirname "$0")/../libs/engine/native"

# name version sha512 (npm's dist.integrity)
GRAMMARS=(
  "tree-sitter-javascript 0.20.4 sha512-7IUgGkZQROI7MmX2ErKhE3YP4+rM2qwBy5JeukE7fJQMEYP9nHpxvuQpa+eOX+hE1im2pWVc1yDCfVKKCBtxww=="
  "tree-sitter-typescript 0.20.5 sha512-RzK/Pc6k4GiXvInIBlo8ZggekP6rODfW2P6KHFCTSUHENsw6ynh+iacFhfkJRa4MT8EIN2WHygFJ7076/+eHKg=="
  "tree-sitter-c 0.20.8 sha512-1393KNfnj67sCpoUjvTa2w1zU1h/3WvZ3Oz/kQzpMQhOjJURTbHAiMguKbBHhveGcoiPWc19bObfybTOWxVorA=="
  "tree-sitter-java 0.20.2 sha512-jc6RCnM+JE2ns1AkpErOp2Dp1jOADPbljsrWup0Vj2qTmG8KGYMSTD7HcrVRyZUC6pRLFySPMOh8x7Dn12aynw=="
  "tree-sitter-python 0.21.0 sha512-IUKx7JcTVbByUx1iHGFS/QsIjx7pqwTMHL9bl/NGyhyyydbfNrpruo2C7W6V4KZrbkkCOlX8QVrCoGOFW5qecg=="
)

for tool in cc c++ make python3; do
  command -v "$tool" >/dev/null || {
    echo "native parser: '$tool' is missing; install a C toolchain and Python 3 (Debian: apt-get install build-essential python3)" >&2
    exit 1
  }
done
command -v node-gyp >/dev/null || {
  echo "native parser: node-gyp is not on PATH; run this script through 'npm run build:native'" >&2
  exit 1
}

mkdir -p grammars
for g in "${GRAMMARS[@]}"; do
  read -r name version sum <<<"$g"
  dir=grammars/${name#tree-sitter-}
  [[ -f "$dir/.integrity" && "$(cat "$dir/.integrity")" == "$sum" ]] && continue
  rm -rf "$dir" grammars/"$name"-*.tgz
  npm pack "$name@$version" --pack-destination grammars --silent >/dev/null
  tgz=grammars/$name-$version.tgz
  got=sha512-$(node -e "process.stdout.write(require('crypto').createHash('sha512').update(require('fs').readFileSync(process.argv[1])).digest('base64'))" "$tgz")
  [[ "$got" == "$sum" ]] || {
    echo "native parser: $name@$version does not match its pinned sha512 (got $got)" >&2
    exit 1
  }
  mkdir -p "$dir"
  # The C sources only: parser.c, scanner.c and the headers they include.
  tar -xzf "$tgz" -C "$dir" --strip-components=1 --wildcards '*.c' '*.h'
  rm -f "$tgz"
  echo "$sum" >"$dir/.integrity"
done

node-gyp rebuild --silent >/dev/null
echo "native parser: $(pwd)/build/Release/lineage_parse.node"
