#!/usr/bin/env node
// The `lineage` command. npm links a workspace's bin when it installs, before
// the TypeScript is built, so the link points here (committed) rather than at
// dist/cli.js, and this says what to do when the build is missing.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('lineage: the engine is not built yet: run `make build` (or `npx tsc -b libs/engine`) in the repository first\n');
  process.exit(1);
}
const { main, quietOnClosedStdout } = require(cli);
quietOnClosedStdout();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
