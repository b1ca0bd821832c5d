import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { grammarLoads, tokenize, winnow } from '@lineage/engine';
import { parserChoice, rawWalkAvailable, tokenizeTreeSitter, walkMode } from '../src/tokenize/treesitter';

// Same program per language, written twice: different identifiers and formatting.
const PAIRS: Record<string, [string, string]> = {
  javascript: [
    'function sum(list) {\n  let total = 0;\n  for (const x of list) { total += x * 2; }\n  return total; // done\n}',
    'function addAll(items){let acc=0\nfor(const v of items){acc+=v*2}\nreturn acc}',
  ],
  typescript: [
    'function sum(list: number[]): number {\n  let total = 0;\n  for (const x of list) total += x;\n  return total;\n}',
    'function f(a: number[]): number { let b = 0; for (const c of a) b += c; return b; }',
  ],
  python: [
    'def sum_all(values):\n    total = 0\n    for v in values:\n        total += v * 2  # twice\n    return total\n',
    'def f(xs):\n  acc = 0\n  for y in xs:\n    acc += y * 2\n  return acc\n',
  ],
  go: [
    'package main\nfunc Sum(list []int) int {\n\ttotal := 0\n\tfor _, x := range list {\n\t\ttotal += x\n\t}\n\treturn total\n}',
    'package main\nfunc Add(xs []int) int { acc := 0; for _, v := range xs { acc += v }; return acc }',
  ],
  java: [
    'class A { int sum(int[] list) { int total = 0; for (int x : list) { total += x; } return total; } }',
    'class B {\n  int add(int[] xs) {\n    int acc = 0;\n    for (int v : xs) {\n      acc += v;\n    }\n    return acc;\n  }\n}',
  ],
  c: [
    'int sum(int *list, int n) { int total = 0; for (int i = 0; i < n; i++) total += list[i]; return total; }',
    'int add(int *xs, int len)\n{\n    int acc = 0;\n    for (int j = 0; j < len; j++)\n        acc += xs[j];\n    return acc;\n}',
  ],
  cpp: [
    'template <class T> T sum(std::vector<T> v) { T t{}; for (auto& x : v) t += x; return t; }',
    'template <class U>\nU add(std::vector<U> xs)\n{\n  U acc{};\n  for (auto& y : xs)\n    acc += y;\n  return acc;\n}',
  ],
  rust: [
    'fn sum(list: &[i32]) -> i32 { let mut total = 0; for x in list { total += x; } total }',
    'fn add(xs: &[i32]) -> i32 {\n    let mut acc = 0;\n    for v in xs {\n        acc += v;\n    }\n    acc\n}',
  ],
  solidity: [
    'contract A { function sum(uint[] memory list) public pure returns (uint t) { for (uint i = 0; i < list.length; i++) { t += list[i]; } } }',
    'contract B {\n  function add(uint[] memory xs) public pure returns (uint acc) {\n    for (uint j = 0; j < xs.length; j++) {\n      acc += xs[j];\n    }\n  }\n}',
  ],
};

describe('tokenize', () => {
  it.each(['javascript', 'typescript', 'tsx', 'python', 'go', 'java', 'c', 'cpp', 'rust', 'solidity'])(
    'loads the tree-sitter grammar for %s',
    async (lang) => {
      expect(await grammarLoads(lang)).toBe(true);
    },
  );

  it('uses the grammar, not the generic lexer (arrow functions are one token "=>")', async () => {
    const t = await tokenize('javascript', 'const f = (a) => a;');
    const g = await tokenize(null, 'const f = (a) => a;');
    expect(t.kinds.length).toBe(8);
    expect(g.kinds.length).toBe(9);
  });

  for (const [lang, [a, b]] of Object.entries(PAIRS)) {
    it(`${lang}: renaming identifiers and reformatting give the same normalised stream`, async () => {
      const ta = await tokenize(lang, a);
      const tb = await tokenize(lang, b);
      expect(ta.kinds.length).toBeGreaterThan(10);
      expect(ta.kinds).toEqual(tb.kinds);
    });
  }

  it('records comments, strings and identifiers for the LANGUAGE layer', async () => {
    const t = await tokenize('javascript', '// a distinctive comment here\nconst greeting = "hello distinctive world";\n');
    expect(t.comments.map((c) => c.text)).toEqual(['// a distinctive comment here']);
    expect(t.strings.map((s) => s.text)).toEqual(['hello distinctive world']);
    expect(t.identifiers.map((i) => i.text)).toContain('greeting');
    expect(t.lines[t.lines.length - 1]).toBe(1);
  });

  it('falls back to the generic lexer for languages without a grammar', async () => {
    const t = await tokenize('fortranish', 'x = foo(1, "two") -- comment\n');
    expect(t.kinds.length).toBe(8);
    expect(t.comments.length).toBe(1);
  });

  it('fingerprints survive function reordering (winnowing is position independent)', async () => {
    const f1 = 'function alpha(a) { let s = 0; for (let i = 0; i < a.length; i++) { s += a[i] * i; } return s - 1; }\n';
    const f2 = 'function beta(b, c) { if (b > c) { return b.map((x) => x + c).filter(Boolean); } return [c, b, c * b]; }\n';
    const h = async (src: string): Promise<Set<number>> => new Set(winnow((await tokenize('javascript', src)).kinds, 10, 4).hashes);
    const ab = await h(f1 + f2);
    const ba = await h(f2 + f1);
    const a = await h(f1);
    const b = await h(f2);
    for (const x of [...a, ...b]) expect(ab.has(x) || ba.has(x)).toBe(true);
    const inBoth = [...a].filter((x) => ba.has(x));
    expect(inBoth.length).toBe(a.size);
  });
});

describe('tree-sitter walk through the raw cursor exports', () => {
  // The raw walk must give exactly the stream of the library's public TreeCursor API.
  const samples: [string, string][] = [
    ...Object.entries(PAIRS).flatMap(
      ([lang, [a, b]]) =>
        [
          [lang, a],
          [lang, b],
        ] as [string, string][],
    ),
    ['typescript', readFileSync(join(__dirname, '..', 'src', 'compare', 'index.ts'), 'utf8')],
    ['javascript', 'const t = `multi\n${line} template`;\n/* block\n comment */ let r = /a[b]+/g;\nfunction broken( { return [1, 2\n'],
    ['python', 'def f(:\n    """doc\n    string"""\n    return {"k": [1, 2'],
  ];

  // JavaScript, TypeScript, C, Java and Python would go through the native parser (native-parser.test.ts compares it with WASM).
  beforeAll(() => {
    parserChoice.native = false;
  });

  afterAll(() => {
    parserChoice.native = true;
  });

  afterEach(() => {
    walkMode.raw = true;
  });

  it.each(samples.map((s, i) => [i, s[0], s[1]] as const))('sample %i (%s) gives the same stream both ways', async (_i, lang, text) => {
    walkMode.raw = true;
    const viaRaw = await tokenizeTreeSitter(lang, text);
    walkMode.raw = false;
    const viaApi = await tokenizeTreeSitter(lang, text);
    expect(viaRaw).not.toBeNull();
    expect(viaRaw!.kinds.length).toBeGreaterThan(0);
    expect(viaRaw).toEqual(viaApi);
  });

  it('is the walk in use (the exports were found)', async () => {
    await tokenizeTreeSitter('javascript', 'x');
    expect(rawWalkAvailable()).toBe(true);
  });
});

describe('tokenize, kinds only (dating)', () => {
  it.each(Object.keys(PAIRS))('%s: the same kinds and lines as the full walk, without the texts', async (language) => {
    for (const text of PAIRS[language]!) {
      const full = await tokenize(language, text + '\n// a comment\nconst s = "a\\nb";\n');
      const kinds = await tokenize(language, text + '\n// a comment\nconst s = "a\\nb";\n', true);
      expect(kinds.kinds).toEqual(full.kinds);
      expect(kinds.lines).toEqual(full.lines);
      expect(kinds.endLines).toEqual(full.endLines);
      expect(full.identifiers.length).toBeGreaterThan(0);
      expect([kinds.identifiers, kinds.strings, kinds.comments]).toEqual([[], [], []]);
    }
  });
});
