// Runs TypeScript sources directly (scripts and benchmarks), with the same transform as the tests.
const fs = require('node:fs');
const swc = require('@swc/core');
require.extensions['.ts'] = (m, filename) => {
  const src = fs.readFileSync(filename, 'utf8');
  m._compile(
    swc.transformSync(src, { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }).code,
    filename,
  );
};
