import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The real sources the native parser is compared on (native-parser.test.ts) and timed on (bench/history/parsers.ts).

const ROOT = join(__dirname, '..', '..', '..');

function files(dir: string, ext: RegExp, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, ext, out);
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

/** Paths by what they are: this repository's TypeScript, knex's JavaScript, the vendored runtime's C, bundled Java and Python. */
export function nativeCorpus(): Record<'ours' | 'knex' | 'runtime' | 'java' | 'python', string[]> {
  return {
    ours: ['libs', 'services'].flatMap((top) =>
      readdirSync(join(ROOT, top))
        .sort()
        .flatMap((pkg) => files(join(ROOT, top, pkg, 'src'), /\.ts$/)),
    ),
    knex: files(join(ROOT, 'node_modules', 'knex', 'lib'), /\.js$/),
    runtime: files(join(ROOT, 'libs', 'engine', 'native', 'vendor', 'tree-sitter', 'lib'), /\.[ch]$/),
    // Real files bundled for this comparison (test/data/native-parser/README.md says from where).
    java: files(join(ROOT, 'test', 'data', 'native-parser', 'java'), /\.java$/),
    python: files(join(ROOT, 'test', 'data', 'native-parser', 'python'), /\.py$/),
  };
}
