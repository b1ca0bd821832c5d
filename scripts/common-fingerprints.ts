// Builds libs/engine/data/common-fingerprints.{bin,json}: the code fingerprints
// found in at least MIN_PACKAGES of a pinned corpus of popular, mutually
// unrelated npm packages and Go modules. Material that many unrelated projects share (module
// wrappers, compiler helpers, polyfills, common idioms) is no evidence that one
// repository derives from another, so these fingerprints carry no weight.
//
//   npx tsc -b libs/engine && node -r ./scripts/swc-register.cjs scripts/common-fingerprints.ts
//
// Needs the npm registry (npm pack, cached under .cache/npm-tarballs) and the Go
// module proxy (`go mod download`, checked against the Go checksum database).
//
// Deterministic: pinned versions, files in sorted order, per-package byte caps;
// the output changes only when the corpus or the engine's tokens change. Tests
// check the file against its description and that known idioms are in it; a
// new file changes manifests, so it comes with a new ENGINE_VERSION.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { classify, DEFAULT_K, DEFAULT_WINDOW, languageOf, tokenize, winnow } from '@lineage/engine';
import { moduleDownload } from '../test/fixtures/go-modules';
import { packageFiles } from '../test/fixtures/npm-packages';
import { readTree } from '../test/fixtures/published';

/**
 * Popular packages from unrelated authors and domains, in versions that ship their
 * sources (not only bundles, which the engine classifies as generated or minified).
 * None is, or is derived from, a package the test fixtures use as a subject
 * (uglify-js, terser, express, koa, typescript).
 */
export const NPM_CORPUS = [
  'lodash@4.17.21',
  'underscore@1.13.6',
  'async@2.6.4',
  'bluebird@3.7.2',
  'q@1.5.1',
  'moment@2.29.4',
  'commander@11.0.0',
  'chalk@2.4.2',
  'debug@4.3.4',
  'semver@7.5.4',
  'minimist@1.2.8',
  'glob@7.2.3',
  'ws@8.14.2',
  'mongoose@7.6.3',
  'sequelize@6.33.0',
  'knex@2.5.1',
  'pg@8.11.3',
  'redis@3.1.2',
  'webpack@5.89.0',
  '@babel/core@7.23.2',
  'eslint@8.52.0',
  'mocha@10.2.0',
  'chai@4.3.10',
  'sinon@17.0.1',
  'handlebars@4.7.8',
  'marked@4.3.0',
  'markdown-it@13.0.2',
  'jquery@3.7.1',
  'leaflet@1.9.4',
  'request@2.88.2',
  'winston@3.11.0',
  'pino@8.16.1',
  'js-yaml@4.1.0',
  'ajv@6.12.6',
  'joi@17.11.0',
  'validator@13.11.0',
  'cheerio@0.22.0',
  'nodemailer@6.9.7',
  'passport@0.6.0',
  'jsonwebtoken@9.0.2',
  'rxjs@5.5.12',
  'fs-extra@11.1.1',
  'readable-stream@2.3.8',
  'superagent@8.1.2',
  'three@0.158.0',
  'socket.io@2.5.0',
] as const;

/** Widely used Go modules from unrelated authors (generated code, such as .pb.go, is classified and skipped). */
export const GO_CORPUS = [
  'github.com/spf13/cobra@v1.8.0',
  'github.com/sirupsen/logrus@v1.9.3',
  'github.com/gin-gonic/gin@v1.9.1',
  'github.com/gorilla/mux@v1.8.1',
  'github.com/stretchr/testify@v1.8.4',
  'github.com/urfave/cli/v2@v2.25.7',
  'github.com/pkg/errors@v0.9.1',
  'go.uber.org/zap@v1.26.0',
  'github.com/prometheus/client_golang@v1.17.0',
  'github.com/redis/go-redis/v9@v9.3.0',
  'gorm.io/gorm@v1.25.5',
  'github.com/labstack/echo/v4@v4.11.3',
  'github.com/spf13/viper@v1.17.0',
  'github.com/fsnotify/fsnotify@v1.7.0',
  'github.com/google/uuid@v1.4.0',
  'github.com/valyala/fasthttp@v1.51.0',
  'github.com/gofiber/fiber/v2@v2.51.0',
  'github.com/jmoiron/sqlx@v1.3.5',
  'github.com/lib/pq@v1.10.9',
  'github.com/go-sql-driver/mysql@v1.7.1',
  'github.com/BurntSushi/toml@v1.3.2',
  'gopkg.in/yaml.v3@v3.0.1',
  'github.com/json-iterator/go@v1.1.12',
  'github.com/rs/zerolog@v1.31.0',
  'github.com/nats-io/nats.go@v1.31.0',
  'github.com/hashicorp/go-multierror@v1.1.1',
  'github.com/cespare/xxhash/v2@v2.2.0',
  'github.com/klauspost/compress@v1.17.2',
  'go.etcd.io/bbolt@v1.3.8',
  'github.com/minio/minio-go/v7@v7.0.63',
  'github.com/gorilla/websocket@v1.5.1',
  'github.com/mitchellh/mapstructure@v1.5.0',
  'github.com/golang-jwt/jwt/v5@v5.1.0',
  'github.com/go-chi/chi/v5@v5.0.10',
  'github.com/julienschmidt/httprouter@v1.3.0',
  'github.com/olekukonko/tablewriter@v0.0.5',
  'github.com/fatih/color@v1.16.0',
] as const;

/** A fingerprint in at least this many corpus packages is common. */
export const MIN_PACKAGES = 3;
const MAX_FILE_BYTES = 512 * 1024;
const MAX_PACKAGE_BYTES = 3 * 1024 * 1024;

async function main(): Promise<void> {
  // hash -> packages seen (count * 1024 + index of the last package that had it; fewer than 1024 packages)
  const seen = new Map<number, number>();
  const perPackage: { registry: 'npm' | 'go'; spec: string; sum?: string; files: number; bytes: number }[] = [];
  const corpus = [
    ...NPM_CORPUS.map((spec) => ({ registry: 'npm' as const, spec })),
    ...GO_CORPUS.map((spec) => ({ registry: 'go' as const, spec })),
  ];
  for (let p = 0; p < corpus.length; p++) {
    const { registry, spec } = corpus[p]!;
    const mod = registry === 'go' ? moduleDownload(spec) : null;
    const files = mod ? readTree(mod.dir) : packageFiles(spec);
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
    perPackage.push({ registry, spec, ...(mod ? { sum: mod.sum } : {}), files: n, bytes });
    process.stderr.write(`${spec}: ${n} files, ${bytes} bytes\n`);
  }
  const common = [...seen]
    .filter(([, v]) => Math.floor(v / 1024) >= MIN_PACKAGES)
    .map(([h]) => h)
    .sort((a, b) => a - b);
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
