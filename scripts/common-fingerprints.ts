// Builds libs/engine/data/common-fingerprints.{bin,json}: the code fingerprints
// found in at least MIN_PACKAGES of a pinned corpus of popular, mutually
// unrelated npm packages. Material that many unrelated projects share (module
// wrappers, compiler helpers, polyfills, common idioms) is no evidence that one
// repository derives from another, so these fingerprints carry no weight.
//
//   npx tsc -b libs/engine && node -r ./scripts/swc-register.cjs scripts/common-fingerprints.ts
//
// Deterministic: pinned versions, files in sorted order, per-package byte caps;
// the output changes only when the corpus or the engine's tokens change. Tests
// check the file against its description and that known idioms are in it; a
// new file changes manifests, so it comes with a new ENGINE_VERSION.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { classify, DEFAULT_K, DEFAULT_WINDOW, languageOf, tokenize, winnow } from '@lineage/engine';
import { packageFiles } from '../test/fixtures/npm-packages';

/**
 * Popular packages from unrelated authors and domains, in versions that ship their
 * sources (not only bundles, which the engine classifies as generated or minified).
 * None is, or is derived from, a package the test fixtures use as a subject
 * (uglify-js, terser, express, koa, typescript).
 */
export const CORPUS = [
  'lodash@4.17.21', 'underscore@1.13.6', 'async@2.6.4', 'bluebird@3.7.2', 'q@1.5.1', 'moment@2.29.4',
  'commander@11.0.0', 'chalk@2.4.2', 'debug@4.3.4', 'semver@7.5.4', 'minimist@1.2.8', 'glob@7.2.3',
  'ws@8.14.2', 'mongoose@7.6.3', 'sequelize@6.33.0', 'knex@2.5.1', 'pg@8.11.3', 'redis@3.1.2',
  'webpack@5.89.0', '@babel/core@7.23.2', 'eslint@8.52.0', 'mocha@10.2.0', 'chai@4.3.10', 'sinon@17.0.1',
  'handlebars@4.7.8', 'marked@4.3.0', 'markdown-it@13.0.2', 'jquery@3.7.1', 'leaflet@1.9.4', 'request@2.88.2',
  'winston@3.11.0', 'pino@8.16.1', 'js-yaml@4.1.0', 'ajv@6.12.6', 'joi@17.11.0', 'validator@13.11.0',
  'cheerio@0.22.0', 'nodemailer@6.9.7', 'passport@0.6.0', 'jsonwebtoken@9.0.2', 'rxjs@5.5.12', 'fs-extra@11.1.1',
  'readable-stream@2.3.8', 'superagent@8.1.2', 'three@0.158.0', 'socket.io@2.5.0',
] as const;

/** A fingerprint in at least this many corpus packages is common. */
export const MIN_PACKAGES = 3;
const MAX_FILE_BYTES = 512 * 1024;
const MAX_PACKAGE_BYTES = 3 * 1024 * 1024;

async function main(): Promise<void> {
  // hash -> packages seen (count * 1024 + index of the last package that had it)
  const seen = new Map<number, number>();
  const perPackage: { spec: string; files: number; bytes: number }[] = [];
  for (let p = 0; p < CORPUS.length; p++) {
    const spec = CORPUS[p]!;
    const files = packageFiles(spec);
    let bytes = 0;
    let n = 0;
    for (const path of Object.keys(files).sort()) {
      const content = files[path]!;
      const language = languageOf(path);
      const cls = classify(path, content);
      if (!language || (cls !== 'source' && cls !== 'test') || content.length > MAX_FILE_BYTES) continue;
      if (bytes + content.length > MAX_PACKAGE_BYTES) break;
      bytes += content.length;
      n++;
      const ts = await tokenize(language, content.toString('utf8'));
      const win = winnow(ts.kinds, DEFAULT_K, DEFAULT_WINDOW);
      for (let i = 0; i < win.hashes.length; i++) {
        if (win.lowEntropy[i]) continue; // already weightless
        const h = win.hashes[i]!;
        const v = seen.get(h);
        if (v === undefined) seen.set(h, 1024 + p);
        else if (v % 1024 !== p) seen.set(h, (Math.floor(v / 1024) + 1) * 1024 + p);
      }
    }
    perPackage.push({ spec, files: n, bytes });
    process.stderr.write(`${spec}: ${n} files, ${bytes} bytes\n`);
  }
  const common = [...seen].filter(([, v]) => Math.floor(v / 1024) >= MIN_PACKAGES).map(([h]) => h).sort((a, b) => a - b);
  const bin = Buffer.from(new Float64Array(common).buffer);
  const dir = resolve(__dirname, '..', 'libs', 'engine', 'data');
  writeFileSync(join(dir, 'common-fingerprints.bin'), bin);
  const description = {
    what: `Code fingerprints (k = ${DEFAULT_K}, window = ${DEFAULT_WINDOW}) found in at least ${MIN_PACKAGES} of the packages below; sorted float64 little-endian integers.`,
    k: DEFAULT_K,
    window: DEFAULT_WINDOW,
    minPackages: MIN_PACKAGES,
    count: common.length,
    sha256: createHash('sha256').update(bin).digest('hex'),
    distinctFingerprints: seen.size,
    packages: perPackage,
  };
  writeFileSync(join(dir, 'common-fingerprints.json'), JSON.stringify(description, null, 2) + '\n');
  process.stdout.write(`${common.length} common of ${seen.size} distinct fingerprints\n`);
}

if (require.main === module) void main();
