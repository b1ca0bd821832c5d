# Lineage — two commands on a fresh machine: `make dev` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.install-stamp
JEST := node_modules/.bin/jest
# The engine's native parser for JavaScript and TypeScript (libs/engine/native/README.md).
NATIVE := libs/engine/native/build/Release/lineage_parse.node

.PHONY: help install build infra chromium dev demo example cli-package test lint format typecheck test-unit test-integration test-e2e chart-test clean

help:
	@echo "make dev    install, build, start NATS/PostgreSQL checks, anvil and all five services"
	@echo "make test   install, build, lint, type-check, unit + integration + e2e tests, chart tests"
	@echo "make demo   (with make dev running) analyse two fixture repositories, assert the fact, print the URLs"
	@echo "make example  build two small example repositories under .example/ for the CLI (offline)"
	@echo "make cli-package  pack the CLI as an installable npm package (.pack/git-lineage-<version>.tgz)"

$(NPM_STAMP): package.json package-lock.json $(wildcard libs/*/package.json services/*/package.json)
	@command -v node >/dev/null || { echo "Node.js 20+ is required (https://nodejs.org or: apt-get install nodejs npm)"; exit 1; }
	@# npm ci trips over platform-specific optional packages missing from the lock file (an npm 11 bug); install honours the lock.
	npm install --no-fund --no-audit
	@touch $@

install: $(NPM_STAMP)

$(NATIVE): $(NPM_STAMP) scripts/native-parser.sh libs/engine/native/binding.gyp libs/engine/native/src/parse.c $(shell find libs/engine/native/vendor -type f)
	npm run --silent build:native

build: install $(NATIVE)
	@if [ -f libs/registry/scripts/generate.mjs ]; then npm run --silent -w libs/registry generate; fi
	npx tsc -b tsconfig.build.json

infra:
	@bash scripts/ensure-infra.sh

# Headless Chromium (Debian's package) for the page tests; installed when missing and run as root.
chromium:
	@bash scripts/ensure-chromium.sh

dev: build infra
	node scripts/dev.mjs

demo: build
	node -r ./scripts/swc-register.cjs scripts/demo.ts

example: install
	@node -r ./scripts/swc-register.cjs scripts/example-repos.ts .example

# The CLI as an installable npm package (git-lineage-<version>.tgz under .pack/): scripts/pack-cli.mjs.
cli-package: build
	@node scripts/pack-cli.mjs --out .pack

PRETTIER_FILES := "**/*.{ts,mts,cts,js,mjs,cjs}"

lint: install
	npx eslint .
	npx prettier --check $(PRETTIER_FILES)
	node scripts/check-deps.mjs

format: install
	npx prettier --write $(PRETTIER_FILES)

typecheck: build
	npx tsc -p tsconfig.test.json

test-unit: build
	$(JEST) --selectProjects unit --maxWorkers=2

test-integration: build infra
	$(JEST) --selectProjects integration --runInBand

test-e2e: build infra chromium
	$(JEST) --selectProjects e2e --runInBand

chart-test: install
	bash scripts/chart-test.sh

test: build infra lint typecheck test-unit test-integration test-e2e chart-test
	@echo "make test: all suites passed"

clean:
	rm -rf node_modules libs/engine/native/build libs/engine/native/grammars libs/*/dist services/*/dist libs/*/tsconfig.tsbuildinfo services/*/tsconfig.tsbuildinfo .dev .example
