import { lineageSignals } from '../../src/lineage/signals/index';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import type { Topology } from '../../src/types';
import { declaredInCode } from '../../src/lineage/signals/declared-in-code';
import { reading } from '../../src/lineage/signals/reading';
import { name } from './fixtures';

/**
 * Without shared history, a comment in matched code that names the other side: clsx's test/classnames.js begins
 * "Ported from `classnames` for compatibility checks." (comments arrive normalised, as the fingerprints hold them).
 */
describe('a declaration in a comment of matched code (no shared history)', () => {
  const side = (pkg: string, comments: string[] = []) => ({
    names: { pinned: [name('package', pkg, 'package:package.json')], past: [] },
    docs: [],
    codeComments: comments.map((text, i) => ({ path: 'test/classnames.js', blobId: 'c'.repeat(40), line: 1 + 10 * i, text })),
  });
  const run = (target: string[], origin: string[] = [], topo: Topology = EMPTY_TOPOLOGY()) =>
    lineageSignals(topo, { origin: side('classnames', origin), target: side('clsx', target) }, { origin: 0, target: 0 });

  it('names the side whose code says where it came from, with the comment as evidence', () => {
    const out = run(['some other note about the tests here', 'ported from `classnames` for compatibility checks.']);
    expect(out.declaredInCodeBy).toBe('target');
    const item = out.evidence.find((e) => e.kind === 'DECLARED_IN_CODE')!;
    expect(item.target).toMatchObject({ path: 'test/classnames.js', startLine: 11 });
    expect(out.chronology).toContainEqual(expect.objectContaining({ kind: 'DECLARED_IN_CODE', side: 'target' }));
  });

  it('needs the name: a comment naming a third project, or an idea borrowed, declares nothing', () => {
    expect(run(['ported from `lodash` for compatibility checks.']).declaredInCodeBy).toBeNull();
    expect(run(['loosely based on classnames api, rewritten from scratch']).declaredInCodeBy).toBeNull();
    // "Based on" is not read in code, and the name must follow the trigger closely (satori/go.uuid's generator.go).
    expect(run(['newv3 returns uuid based on md5 hash of namespace classnames and name.']).declaredInCodeBy).toBeNull();
    expect(run(['copied from the node_modules folder of a project using classnames']).declaredInCodeBy).toBeNull();
    expect(run(['adapted from classnames v2.3, with the dedupe variant dropped']).declaredInCodeBy).toBe('target');
  });

  it("declares nothing in a comment the other side's code carries word for word: it is the common source's", () => {
    // Two builds of suckless st: "…produce '\n' when something is copied from st…" is st's own comment, in both.
    const st = "the best solution seems like to produce '\\n' when something is copied from classnames and convert it.";
    expect(run([st]).declaredInCodeBy).toBe('target');
    expect(run([st], [st]).declaredInCodeBy).toBeNull();
  });

  it('counts neither side when both comments name the other, and is not read with shared history', () => {
    expect(run(['ported from classnames.'], ['ported from clsx.']).declaredInCodeBy).toBeNull();
    const shared = { ...EMPTY_TOPOLOGY(), forkPoints: [{ commit: 'f'.repeat(40), time: 1_545_000_000 }], sharedCommits: 10 };
    expect(run(['ported from `classnames` for compatibility checks.'], [], shared).declaredInCodeBy).toBeNull();
  });
});

describe('declaredInCode', () => {
  it('returns the item and the chronology fact for one side, and no vote', () => {
    const r = reading({
      topo: EMPTY_TOPOLOGY(),
      shared: false,
      sides: {
        origin: { names: { pinned: [name('package', 'classnames', 'package:package.json')], past: [] }, docs: [] },
        target: {
          names: { pinned: [name('package', 'clsx', 'package:package.json')], past: [] },
          docs: [],
          codeComments: [
            { path: 'test/classnames.js', blobId: 'c'.repeat(40), line: 1, text: 'ported from `classnames` for compatibility checks.' },
          ],
        },
      },
    });
    const c = declaredInCode(r, 'target');
    expect(c.declared).toBe(true);
    expect(c.votes).toEqual([]);
    expect(c.evidence.map((e) => [e.kind, e.strength, e.target?.path, e.origin])).toEqual([
      ['DECLARED_IN_CODE', 'STRONG', 'test/classnames.js', null],
    ]);
    expect(c.chronology).toEqual([
      {
        kind: 'DECLARED_IN_CODE',
        side: 'target',
        time: null,
        commit: null,
        detail: 'test/classnames.js:1 names the other repository as where its code came from',
      },
    ]);
    expect(declaredInCode(r, 'origin').declared).toBe(false);
  });
});
