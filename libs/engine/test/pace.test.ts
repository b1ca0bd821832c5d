import { DEFAULT_K, DEFAULT_WINDOW } from '@lineage/engine';
import { compareLanguage } from '../src/compare/language';
import { Pacer } from '../src/compare/pace';
import { fingerprintFile } from '../src/fingerprint-file';
import type { Fingerprints, LanguageItem } from '../src/types';

function side(prefix: string, files: number): Fingerprints {
  const language: LanguageItem[] = [];
  for (let f = 0; f < files; f++) {
    const path = `src/${prefix}${f}.js`;
    for (let i = 0; i < 40; i++) {
      language.push({ kind: 'IDENTIFIER', text: `sharedHelperName${f}_${i}`, path, line: i + 1 });
      language.push({ kind: 'COMMENT', text: `this comment explains what helper ${f} ${i} does with recieve`, path, line: i + 1 });
      language.push({ kind: 'STRING', text: `${prefix} message number ${f} ${i}`, path, line: i + 1 });
    }
  }
  return { commit: '0'.repeat(40), k: DEFAULT_K, window: DEFAULT_WINDOW, files: [], language, tests: [], manifests: [], totalTokens: 0 };
}

describe('Pacer', () => {
  it('asks for a turn of the event loop only once its slice is used up, and then every 256 calls at most', () => {
    const never = new Pacer(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 2000; i++) expect(never.step()).toBeUndefined();
    const always = new Pacer(0);
    const turns: number[] = [];
    for (let i = 1; i <= 1024; i++) if (always.step()) turns.push(i);
    expect(turns).toEqual([256, 512, 768, 1024]);
  });
});

describe('compareLanguage beside other work', () => {
  it('lets the event loop run while it computes, with the same result as in one block', async () => {
    const o = side('a', 80);
    const t = side('b', 80);
    const block = await compareLanguage(o, t, new Pacer(Number.POSITIVE_INFINITY));
    let ranDuring = false;
    const run = compareLanguage(o, t, new Pacer(0));
    setImmediate(() => (ranDuring = true));
    const paced = await run;
    expect(ranDuring).toBe(true);
    expect(paced).toEqual(block);
    expect(block.items.some((i) => i.kind === 'SHARED_TYPO')).toBe(true);
    expect(block.items.some((i) => i.kind === 'SHARED_IDENTIFIER')).toBe(true);
  });
});

describe('fingerprints only (dating)', () => {
  it('gives the same fingerprints as a full job, without language items or test names', async () => {
    const text = `describe('the parser', () => {\n  it('reads every token of the input', () => {\n    // a comment long enough to be a language item\n    const parsedOutputValue = parseEverything("a string literal of some length");\n    expect(parsedOutputValue).toBe(42);\n  });\n});\n`;
    const job = { path: 'test/parse.test.js', blobId: '1'.repeat(40), language: 'javascript', isTest: true, text };
    const full = await fingerprintFile(job, DEFAULT_K, DEFAULT_WINDOW);
    const only = await fingerprintFile({ ...job, fingerprintsOnly: true }, DEFAULT_K, DEFAULT_WINDOW);
    expect(full.language.length).toBeGreaterThan(0);
    expect(full.tests.length).toBeGreaterThan(0);
    expect(only.fp).toEqual(full.fp);
    expect(only.language).toEqual([]);
    expect(only.tests).toEqual([]);
  });
});
