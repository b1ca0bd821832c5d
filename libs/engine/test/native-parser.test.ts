import { readFileSync } from 'node:fs';
import { nativeParserAvailable, parserChoice, tokenizeTreeSitter } from '../src/tokenize/treesitter';
import { nativeCorpus } from './native-corpus';

// The native parser (libs/engine/native) must give the token streams WASM gives, byte for byte: manifests may not
// depend on whether a host built it. Real code, and the same code through the wrong grammar (error recovery).

const { ours, knex, runtime, java, python } = nativeCorpus();
const read = (ps: string[]): string[] => ps.map((p) => readFileSync(p, 'utf8'));

async function both(language: string, text: string, kindsOnly = false): Promise<[unknown, unknown]> {
  parserChoice.native = false;
  const wasm = await tokenizeTreeSitter(language, text, kindsOnly);
  parserChoice.native = true;
  const native = await tokenizeTreeSitter(language, text, kindsOnly);
  return [native, wasm];
}

async function compareAll(language: string, texts: string[]): Promise<number> {
  let tokens = 0;
  for (const text of texts) {
    const [native, wasm] = await both(language, text);
    expect(native).toEqual(wasm);
    tokens += (native as { kinds: number[] } | null)?.kinds.length ?? 0;
  }
  return tokens;
}

afterAll(() => {
  parserChoice.native = true;
});

describe('native parser', () => {
  it('is built (make build) and loads', () => {
    expect(nativeParserAvailable()).toBe(true);
  });

  it("gives WASM's streams on this repository's TypeScript, as TypeScript", async () => {
    expect(ours.length).toBeGreaterThan(100);
    expect(await compareAll('typescript', read(ours))).toBeGreaterThan(100_000);
  });

  it("gives WASM's streams on the same TypeScript through the TSX grammar (casts and generics parse as errors)", async () => {
    expect(await compareAll('tsx', read(ours))).toBeGreaterThan(100_000);
  });

  it("gives WASM's streams on knex's JavaScript, and on part of it through the TypeScript grammar", async () => {
    expect(knex.length).toBeGreaterThan(50);
    expect(await compareAll('javascript', read(knex))).toBeGreaterThan(50_000);
    expect(await compareAll('typescript', read(knex.slice(0, 40)))).toBeGreaterThan(10_000);
  });

  it("gives WASM's streams on the tree-sitter runtime's C", async () => {
    expect(runtime.length).toBeGreaterThan(30);
    expect(await compareAll('c', read(runtime))).toBeGreaterThan(100_000);
  });

  it("gives WASM's streams on real Java and Python", async () => {
    expect(java.length).toBeGreaterThan(10);
    expect(await compareAll('java', read(java))).toBeGreaterThan(10_000);
    expect(python.length).toBeGreaterThan(5);
    expect(await compareAll('python', read(python))).toBeGreaterThan(10_000);
  });

  it('gives the same streams for code through the wrong one of these grammars (error recovery)', async () => {
    expect(await compareAll('java', read(runtime.slice(0, 10)))).toBeGreaterThan(5_000);
    expect(await compareAll('c', read([...java.slice(0, 4), ...python.slice(0, 4)]))).toBeGreaterThan(5_000);
    expect(await compareAll('python', read([...runtime.slice(0, 5), ...java.slice(0, 4), ...knex.slice(0, 5)]))).toBeGreaterThan(5_000);
  });

  it.each([
    ['empty', 'javascript', ''],
    ['CRLF, a template across lines, a regex, a broken call', 'javascript', 'const t = `a\r\n${b}\r\nc`;\r\nlet r = /x[y]+/g;\r\nf( {\r\n'],
    ['astral characters and a lone surrogate before tokens', 'javascript', 'const s = "😀𝒳"; /* 😀 */ let \ud800 x = 1; y = "\udfff";\nz;'],
    ['NUL and other control characters', 'javascript', 'a\u0000b = 1;\u0001\n"c\u0000"'],
    ['missing closers (MISSING nodes)', 'typescript', 'function f(a: number { return [1, 2; }\nclass C { m(): void {'],
    ['JSX', 'tsx', 'const x = <div className="a">{items.map((i: number) => <b key={i}>{i}</b>)}</div>;'],
    ['deep nesting', 'javascript', '['.repeat(20_000) + ']'.repeat(20_000)],
    ['long line of tokens', 'typescript', 'let a: number = 0' + '+a'.repeat(50_000) + ';'],
    [
      'C: the preprocessor, a macro across lines, CRLF',
      'c',
      '#include <a.h>\r\n#define M(x) \\\r\n  ((x) + 1)\r\n#if X\nint f(void) { return M(2); }\n#endif\n',
    ],
    ['C: an unterminated comment and string', 'c', 'int a = 1; /* open\nchar *s = "open\n'],
    [
      'Java: generics, annotations, a text block, a lambda',
      'java',
      '@A(x = 1) class C<T extends List<? super T>> { String s = """\n  a\n  """; Runnable r = () -> {}; }',
    ],
    [
      'Python: indentation, tabs, CRLF and f-strings',
      'python',
      'def f(a):\r\n\tif a:\r\n\t\treturn f"{a!r:>{w}} {b}"\r\n\treturn rb\'\\x00\'\r\n',
    ],
    [
      'Python: a dedent to nowhere, an open bracket and an open triple quote',
      'python',
      'class A:\n    x = [1,\n  y = 2\n"""never closed\n',
    ],
    ['Python: deep nesting', 'python', '('.repeat(5_000) + ')'.repeat(5_000)],
  ])('gives the same stream for %s', async (_name, language, text) => {
    const [native, wasm] = await both(language, text);
    expect(native).toEqual(wasm);
    const [nativeKinds, wasmKinds] = await both(language, text, true);
    expect(nativeKinds).toEqual(wasmKinds);
  });
});
