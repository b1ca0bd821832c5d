import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GRAMMARS, tokenize } from '@lineage/engine';
import { GrammarAbort, LIBC_SHIMS, stackRestoreAvailable, tokenizeTreeSitter } from '../src/tokenize/treesitter';

// The compiler's lib has no WebAssembly types; these are the few used here.
interface Descriptor {
  name: string;
  kind: string;
}
const { Module } = (
  globalThis as unknown as {
    WebAssembly: { Module: { new (bytes: Uint8Array): object; imports(m: object): Descriptor[]; exports(m: object): Descriptor[] } };
  }
).WebAssembly;
const wasm = (file: string) => new Module(readFileSync(file));
const grammarFile = (g: string) => join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', `tree-sitter-${g}.wasm`);

// Loading all 20 grammars and parsing 2,000 texts takes seconds on a loaded 2-core machine; the limit only guards against a hang.
jest.setTimeout(120_000);

describe('grammar imports', () => {
  it('every function a grammar imports is exported by the runtime or shimmed', () => {
    const runtime = new Set(Module.exports(wasm(join(dirname(require.resolve('web-tree-sitter')), 'tree-sitter.wasm'))).map((e) => e.name));
    const unmet = Object.values(GRAMMARS).flatMap((g) =>
      Module.imports(wasm(grammarFile(g)))
        .filter((i) => i.kind === 'function' && !runtime.has(i.name) && !(i.name in LIBC_SHIMS))
        .map((i) => `${g}: ${i.name}`),
    );
    expect(unmet).toEqual([]);
  });

  it('bash parses `case x in` followed by CRLF with its grammar (its scanner calls isalpha)', async () => {
    const r = await tokenizeTreeSitter('bash', 'case "$1" in\r\n  run)\r\n    go\r\n    ;;\r\nesac\r\n');
    expect(r).not.toBeNull();
    expect(r!.kinds.length).toBeGreaterThan(5);
  });

  it('a scanner that aborts gives the generic lexer for that text, and hundreds of aborts leave the runtime intact', async () => {
    const js = 'function sum(list) { let total = 0; for (const x of list) total += x; return total; }';
    const before = await tokenize('javascript', js);
    const text = 'case x in\r\n';
    const isalpha = LIBC_SHIMS.isalpha!;
    LIBC_SHIMS.isalpha = () => {
      throw new GrammarAbort('test: the scanner aborts');
    };
    try {
      // Without putting the stack pointer back, the runtime failed with "memory access out of bounds" within 100.
      for (let i = 0; i < 300; i++) expect(await tokenizeTreeSitter('bash', text)).toBeNull();
      expect(await tokenize('bash', text)).toEqual(await tokenize(null, text));
    } finally {
      LIBC_SHIMS.isalpha = isalpha;
    }
    expect(stackRestoreAvailable()).toBe(true);
    expect(await tokenizeTreeSitter('bash', text)).not.toBeNull();
    expect(await tokenize('javascript', js)).toEqual(before);
  });

  it('odd input never throws from any grammar (100 pseudo-random texts each, fixed seed)', async () => {
    const pieces = [
      '\r\n',
      '\n',
      '\t',
      ' ',
      '"',
      "'",
      '`',
      '$',
      '{',
      '}',
      '(',
      ')',
      '[',
      ']',
      '<<EOF',
      'EOF',
      '#',
      '//',
      '/*',
      '*/',
      '\\',
      ';',
      '=>',
      'case',
      'in',
      'esac',
      'if',
      'fi',
      'def',
      'class',
      'fn',
      'end',
      'x',
      '0x1f',
      '@',
      '%',
      '"""',
      "'''",
      'é',
      '中',
      '😀',
      '\0',
      '\u2028',
      '<?php',
      '?>',
      '${',
      '#{',
      'R"(',
      ')"',
      '<<-X',
      'X',
    ];
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const failed: string[] = [];
    for (const g of Object.keys(GRAMMARS)) {
      for (let i = 0; i < 100; i++) {
        let text = '';
        for (let j = 1 + rnd(80); j > 0; j--) text += pieces[rnd(pieces.length)];
        await tokenize(g, text).catch((e: Error) => failed.push(`${g}: ${e.message}: ${JSON.stringify(text)}`));
      }
    }
    expect(failed).toEqual([]);
  });

  it('the isalpha shim is the C locale', () => {
    const alpha = [...'azAZ'].map((c) => LIBC_SHIMS.isalpha!(c.charCodeAt(0)));
    const not = [...'@[`{09 _'].map((c) => LIBC_SHIMS.isalpha!(c.charCodeAt(0))).concat(LIBC_SHIMS.isalpha!(-1), LIBC_SHIMS.isalpha!(0xc1));
    expect(alpha).toEqual([1, 1, 1, 1]);
    expect(not.every((x) => x === 0)).toBe(true);
  });
});
