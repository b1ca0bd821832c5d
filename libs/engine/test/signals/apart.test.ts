// The runner of the signals read without shared history (lineage/apart): what applies when, in which order, and
// how the two copyright readings combine into one copier.
import { apartSignals, type ApartSide } from '../../src/lineage/apart/index';
import type { SideAuthors } from '../../src/lineage/licence';

const ID = '// Copyright(C) 1993-1996 Id Software, Inc.\n';
const head = (...lines: string[]): string => `//\n${lines.join('')}//\n// This program is free software\n#include "doomdef.h"\n`;
const person = (name: string, commits = 90): SideAuthors => ({
  authors: [{ name, email: `${name.split(' ')[0]!.toLowerCase()}@example.org`, commits }],
  founder: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.org` },
});

function side(own: string, heads: Record<string, string>, over: Partial<ApartSide> = {}): ApartSide {
  const paths = Object.keys(heads);
  return {
    licences: [],
    docs: [],
    ownNames: [],
    embedded: {
      heads: paths.map((path, i) => ({ path, blobId: String(i).repeat(40), text: heads[path]! })),
      matched: new Map(paths.map((p) => [p, 100])),
      code: paths.map((path) => ({ path, tokens: 1000 })),
      licences: [],
      authors: person(own),
    },
    bulk: null,
    snapshot: false,
    ...over,
  };
}

const release = side('Travis Uploader', { 'linuxdoom-1.10/am_map.c': head(ID) });
const port = side('Simon Howard', { 'src/doom/am_map.c': head(ID, '// Copyright(C) 2005-2014 Simon Howard\n') });
const authors = { origin: person('Travis Uploader'), target: person('Simon Howard') };

describe('apartSignals', () => {
  it('reads nothing when the histories share commits', () => {
    expect(apartSignals({ origin: release, target: port }, true, authors)).toEqual({
      evidence: [],
      chronology: [],
      attributedBy: null,
      thirdParty: null,
      template: null,
    });
  });

  it('names the side that added its own notice as the copier, with an item at its file and a fact', () => {
    const out = apartSignals({ origin: release, target: port }, false, authors);
    expect(out.attributedBy).toBe('target');
    expect(out.evidence.map((e) => [e.kind, e.target?.path])).toEqual([['COPYRIGHT_ATTRIBUTION', 'src/doom/am_map.c']]);
    expect(out.chronology.map((c) => [c.kind, c.side])).toEqual([['COPYRIGHT_ATTRIBUTION', 'target']]);
  });

  it("reads two snapshots that hold nothing but a third holder's code as two uploads of it, and a snapshot and a project as neither", () => {
    const upload = (who: string, snapshot: boolean): ApartSide => ({ ...side(who, { 'linuxdoom-1.10/am_map.c': head(ID) }), snapshot });
    const two = apartSignals({ origin: upload('Travis Uploader', true), target: upload('Pat Uploader', true) }, false, authors);
    expect(two.thirdParty).toBe('Id Software, Inc');
    expect(two.chronology.map((c) => c.kind)).toEqual(['THIRD_PARTY_CODE']);
    expect(two.chronology[0]!.detail).toContain('two uploads of that work');
    const one = apartSignals({ origin: upload('Travis Uploader', true), target: upload('Pat Uploader', false) }, false, authors);
    expect(one.thirdParty).toBeNull();
  });

  it('gives no copier when the licence and the added notice name different sides', () => {
    // The origin's licence keeps the target's founder's notice; the target's files add its own under id's.
    const licensed = { ...release, licences: [{ path: 'LICENSE', blobId: 'a'.repeat(40), text: 'Copyright (c) 2005 Simon Howard\n' }] };
    const out = apartSignals({ origin: licensed, target: port }, false, authors);
    expect(out.chronology.map((c) => [c.kind, c.side])).toEqual([
      ['COPYRIGHT_ATTRIBUTION', 'origin'],
      ['COPYRIGHT_ATTRIBUTION', 'target'],
    ]);
    expect(out.attributedBy).toBeNull();
  });

  it('reads a template only when both READMEs cite it and each side got its material in one bootstrap commit', () => {
    const docs = [
      {
        path: 'README.md',
        blobId: 'b'.repeat(40),
        text: 'This project was generated with [Angular CLI](https://github.com/angular/angular-cli).\n',
      },
    ];
    const boot = (commit: string, filesMade: number) => ({ commit: commit.repeat(40), share: 0.9, filesMade });
    const a = side('Ann', {}, { docs, bulk: boot('1', 30), embedded: null });
    const b = side('Bob', {}, { docs, bulk: boot('2', 25), embedded: null });
    const out = apartSignals({ origin: a, target: b }, false, undefined);
    expect(out.template).toBe('angular/angular-cli');
    expect(out.chronology.map((c) => c.kind)).toEqual(['COMMON_TEMPLATE']);
    expect(apartSignals({ origin: a, target: { ...b, bulk: boot('2', 5) } }, false, undefined).template).toBeNull();
    expect(apartSignals({ origin: a, target: { ...b, docs: [] } }, false, undefined).template).toBeNull();
  });
});
