// addedNotice: the side whose matched files add its own people's copyright line under a holder both sides' files name.
import { addedNotice } from '../src/lineage/added-notice';
import type { SideThirdPartyInput } from '../src/lineage/third-party';

const ID = '// Copyright(C) 1993-1996 Id Software, Inc.\n';
const head = (...lines: string[]): string => `//\n${lines.join('')}//\n// This program is free software\n#include "doomdef.h"\n`;

function side(own: string, heads: Record<string, string>, over: Partial<SideThirdPartyInput> = {}): SideThirdPartyInput {
  const paths = Object.keys(heads);
  return {
    heads: paths.map((path, i) => ({ path, blobId: String(i).repeat(40), text: heads[path]! })),
    matched: new Map(paths.map((p) => [p, 100])),
    code: paths.map((path) => ({ path, tokens: 1000 })),
    licences: [],
    authors: { authors: [{ name: own, email: `${own.split(' ')[0]!.toLowerCase()}@example.org`, commits: 90 }], founder: null },
    ...over,
  };
}

// id's source release (its uploader made its commits) and a port that kept id's notice and added its author's.
const release = side('Travis Uploader', { 'linuxdoom-1.10/am_map.c': head(ID), 'linuxdoom-1.10/p_map.c': head(ID) });
const port = side('Simon Howard', {
  'src/doom/am_map.c': head(ID, '// Copyright(C) 2005-2014 Simon Howard\n'),
  'src/doom/p_map.c': head(ID, '// Copyright(C) 2005-2014 Simon Howard\n'),
});

describe('addedNotice', () => {
  it("names the side whose files add its own author's notice under the holder both keep", () => {
    expect(addedNotice({ origin: release, target: port })).toEqual({
      by: 'target',
      holder: 'Id Software, Inc',
      added: 'Simon Howard',
      path: 'src/doom/am_map.c',
      line: 3,
      blobId: '0'.repeat(40),
      share: 1,
    });
    expect(addedNotice({ origin: port, target: release })?.by).toBe('origin');
  });

  it("reads a notice of the other side's own author kept under the added one the same way", () => {
    const original = side('Alice Original', { 'src/a.c': head('// Copyright 2010 Alice Original\n') });
    const fork = side('Bob Forker', { 'src/a.c': head('// Copyright 2010 Alice Original\n', '// Copyright 2015 Bob Forker\n') });
    expect(addedNotice({ origin: original, target: fork })?.by).toBe('target');
  });

  it("is none when the added holder is not the side's own, or the other side names it too", () => {
    const stranger = side('Simon Howard', { 'src/doom/am_map.c': head(ID, '// Copyright(C) 2005 Some Contributor\n') });
    expect(addedNotice({ origin: release, target: stranger })).toBeNull();
    const both = side('Travis Uploader', { 'linuxdoom-1.10/am_map.c': head(ID, '// Copyright(C) 2005-2014 Simon Howard\n') });
    expect(addedNotice({ origin: both, target: port })).toBeNull();
  });

  it("is none when the holder both name is the adding side's own: that side is the author", () => {
    const author = side(
      'Simon Howard',
      { 'src/x.c': head('// Copyright 2005 Simon Howard\n', '// Copyright 2006 Simon Howard Jr\n') },
      {
        authors: {
          authors: [
            { name: 'Simon Howard', email: 'simon@example.org', commits: 50 },
            { name: 'Simon Howard Jr', email: 'jr@example.org', commits: 50 },
          ],
          founder: null,
        },
      },
    );
    const copy = side('Someone Else', { 'x.c': head('// Copyright 2005 Simon Howard\n') });
    expect(addedNotice({ origin: copy, target: author })).toBeNull();
  });

  it('is none below ADDED_NOTICE_SHARE of the matched material, and when both sides add their own', () => {
    const few = { ...port, matched: new Map([...port.matched, ['src/doom/other.c', 900]]) };
    expect(addedNotice({ origin: release, target: few })).toBeNull();
    const releaseAdding = side('Travis Uploader', { 'linuxdoom-1.10/am_map.c': head(ID, '// Copyright 2012 Travis Uploader\n') });
    expect(addedNotice({ origin: releaseAdding, target: port })).toBeNull();
  });
});
