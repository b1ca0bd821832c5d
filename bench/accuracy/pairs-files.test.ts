// Every committed pairs file parses with the one reader (test/support/pairs.ts), and the reader refuses what breaks
// the format with the file and line named.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAIRS_HEADER, PairsFileError, readPairsFile } from '../../test/support/pairs';

describe('the pairs files', () => {
  const files = [
    join(__dirname, 'pairs.tsv'),
    ...readdirSync(join(__dirname, 'heldout'))
      .filter((f) => f.endsWith('.tsv'))
      .map((f) => join(__dirname, 'heldout', f)),
  ];

  it.each(files)('%s parses, every pair with an accept list and owner/name repositories', (f) => {
    const pairs = readPairsFile(f);
    expect(pairs.length).toBeGreaterThan(0);
    for (const p of pairs) expect(p.accept.length).toBeGreaterThan(0);
  });

  it('holds no pair name twice across the development and held-out sets', () => {
    const names = files.flatMap((f) => readPairsFile(f).map((p) => p.name));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('readPairsFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lineage-pairs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (text: string): string => {
    const p = join(dir, `f${Math.random().toString(36).slice(2)}.tsv`);
    writeFileSync(p, text);
    return p;
  };
  const row = (c: Partial<Record<'accept' | 'forbid' | 'origin' | 'name', string>> = {}) =>
    [c.name ?? 'p', c.origin ?? 'a/b', 'c'.repeat(40), 'd/e', 'f'.repeat(40), c.accept ?? 'INDEPENDENT', c.forbid ?? 'NONE', 'a note'].join(
      '\t',
    );
  const head = PAIRS_HEADER.join('\t');

  it('reads a pair, skipping blank and # lines; an empty file has none', () => {
    expect(readPairsFile(file(`${head}\n# a comment\n\n${row()}\n`))).toEqual([
      expect.objectContaining({ name: 'p', origin: 'a/b', accept: ['INDEPENDENT'], forbid: ['NONE'], note: 'a note' }),
    ]);
    expect(readPairsFile(file(''))).toEqual([]);
  });

  it('names the file and line of what breaks the format', () => {
    const bad = (text: string) => () => readPairsFile(file(text));
    expect(bad(`name\torigin\n${row()}`)).toThrow(PairsFileError);
    expect(bad(`${head}\n${row({ accept: 'FORKED' })}`)).toThrow(/:2: unknown verdict FORKED$/);
    expect(bad(`${head}\n${row({ forbid: 'UP' })}`)).toThrow(/:2: unknown direction UP$/);
    expect(bad(`${head}\n${row({ origin: 'not-a-repo' })}`)).toThrow(/:2: "not-a-repo" is not owner\/name$/);
    expect(bad(`${head}\n${row()}\n${row()}`)).toThrow(/:3: duplicate pair name p$/);
    expect(bad(`${head}\n${row({ accept: '' })}`)).toThrow(/:2: empty accept list$/);
  });
});
