import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compareLanguage } from '../src/compare/language';
import { lookup, words } from '../src/typos';
import type { Fingerprints, LanguageItem } from '../src/types';

function fp(items: [LanguageItem['kind'], string, string][]): Fingerprints {
  return {
    commit: '0'.repeat(40),
    k: 23,
    window: 17,
    files: [],
    tests: [],
    manifests: [],
    totalTokens: 0,
    language: items.map(([kind, text, path], i) => ({ kind, text, path, line: i + 1 })),
  };
}

/** The misspelt words of a text, as the LANGUAGE layer finds them. */
const misspellings = (text: string) =>
  words(text).flatMap((word) => {
    const correction = lookup(word);
    return correction === undefined ? [] : [{ word, correction }];
  });

/** The pinned list's ASCII typos, in file order, read the ordinary way. */
function listedKeys(): string[] {
  const dir = dirname(require.resolve('@cspell/dict-en-common-misspellings/cspell-ext.json'));
  const defs = JSON.parse(readFileSync(join(dir, 'dict', 'dict-en.json'), 'utf8')) as {
    dictionaryDefinitions: { suggestWords: string[] }[];
  };
  return defs.dictionaryDefinitions[0]!.suggestWords.map((e) => e.slice(0, e.indexOf('->')).toLowerCase()).filter((k) =>
    /^[a-z]+$/.test(k),
  );
}

describe('misspellings', () => {
  it('splits identifiers and prose into lower-cased words of 4+ letters', () => {
    expect(words('recieveMessage_lenght OK')).toEqual(['recieve', 'message', 'lenght']);
  });

  it('finds listed misspellings, not abbreviations, locale variants or correct words', () => {
    expect(misspellings('function recieveParamter(seperator) // occured twice').map((m) => m.word)).toEqual([
      'recieve',
      'paramter',
      'seperator',
      'occured',
    ]);
    expect(misspellings('impl args util config colour behaviour initialise cancelled referer')).toEqual([]);
    expect(misspellings('lenght')[0]!.correction).toBe('length');
  });
});

describe('shared typos in the LANGUAGE layer', () => {
  it('reports a misspelling both sides make, once per word, with both locations', async () => {
    const o = fp([
      ['COMMENT', 'make sure the buffer lenght is checked before we recieve', 'a.js'],
      ['IDENTIFIER', 'recieveAll', 'b.js'],
    ]);
    const t = fp([
      ['IDENTIFIER', 'totalLenght', 'x/y.ts'],
      ['COMMENT', 'unrelated words only here for the target side', 'z.ts'],
    ]);
    const r = await compareLanguage(o, t);
    const typos = r.items.filter((i) => i.kind === 'SHARED_TYPO');
    expect(typos).toHaveLength(1);
    expect(typos[0]).toMatchObject({
      layer: 'LANGUAGE',
      strength: 'MODERATE',
      origin: { path: 'a.js', startLine: 1 },
      target: { path: 'x/y.ts', startLine: 1 },
    });
    expect(typos[0]!.detail).toContain('"lenght"');
    expect(Number(r.score)).toBeGreaterThan(0);
  });

  it('finds nothing when only one side misspells, or the words are spelt right', async () => {
    const o = fp([['COMMENT', 'the buffer lenght is checked before we recieve it', 'a.js']]);
    const t = fp([['COMMENT', 'the buffer length is checked before we receive it', 'a.js']]);
    expect((await compareLanguage(o, t)).items.filter((i) => i.kind === 'SHARED_TYPO')).toEqual([]);
  });

  it('ignores misspellings inside licence text', async () => {
    const lic = 'Permission is hereby granted, free of charge, to any person obtaining a copy; seperate notice';
    const r = await compareLanguage(fp([['COMMENT', lic, 'LICENSE.js']]), fp([['COMMENT', lic, 'LICENSE.js']]));
    expect(r.items.filter((i) => i.kind === 'SHARED_TYPO')).toEqual([]);
  });
});

describe('the pinned misspelling list', () => {
  it('is sorted the way the binary search expects, and lookups find first, last and mixed-case entries', () => {
    const keys = listedKeys();
    expect(keys.every((k, i) => i === 0 || keys[i - 1]! <= k)).toBe(true);
    expect(lookup('aaccess')).toBe('access');
    expect(lookup('amercia')).toBeDefined();
    expect(lookup('programing')).toBe('programming'); // one of the few entries outside the sorted array
    expect(lookup('zzzzzz')).toBeUndefined();
  });

  it('every ASCII entry of the list is found by the search (no entry hidden by the out-of-order ones)', () => {
    const keys = listedKeys();
    expect(keys.length).toBeGreaterThan(80_000);
    expect(keys.filter((k) => lookup(k) === undefined)).toEqual([]);
  });
});
