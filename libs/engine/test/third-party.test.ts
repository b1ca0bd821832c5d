// thirdPartyCode: the copyright holder whose notice heads the matched code on both sides, when it is neither side's own.
import { thirdPartyCode, type SideThirdPartyInput } from '../src/lineage/third-party';

const MIT = (holder: string): string =>
  `/*====\n Copyright (c) 2020 ${holder}\n\n Permission is hereby granted, free of charge, to any person obtaining a copy\n*/\n#include "x.h"\n`;

function side(over: Partial<SideThirdPartyInput> & { own: string }): SideThirdPartyInput {
  return {
    heads: [
      { path: 'lib/yyjson.c', blobId: 'a'.repeat(40), text: MIT('YaoYuan <ibireme@gmail.com>') },
      { path: 'src/main.c', blobId: 'b'.repeat(40), text: `/* Copyright 2023 ${over.own} */\n` },
    ],
    matched: new Map([
      ['lib/yyjson.c', 900],
      ['lib/yyjson.h', 80],
      ['src/main.c', 20],
    ]),
    code: [
      { path: 'lib/yyjson.c', tokens: 3000 },
      { path: 'lib/yyjson.h', tokens: 1000 },
      { path: 'src/main.c', tokens: 3000 },
      { path: 'src/util.c', tokens: 3000 },
    ],
    licences: [{ text: `MIT License\n\nCopyright (c) 2023 ${over.own}\n` }],
    authors: {
      authors: [{ name: over.own, email: `${over.own.toLowerCase().replace(/\W/g, '')}@example.org`, commits: 50 }],
      founder: null,
    },
    ...over,
  };
}

describe('thirdPartyCode', () => {
  it('finds the holder both sides keep, neither side being its author', () => {
    const r = thirdPartyCode({ origin: side({ own: 'Jane Roe' }), target: side({ own: 'EarthScope Consortium' }) });
    expect(r).toMatchObject({ holder: 'YaoYuan', origin: { path: 'lib/yyjson.c', line: 2 }, target: { path: 'lib/yyjson.c', line: 2 } });
    // yyjson.h has no notice of its own: it counts as the holder's because it lies beside yyjson.c.
    expect(r!.matchedShare).toEqual({ origin: 0.98, target: 0.98 });
    expect(r!.codeShare).toEqual({ origin: 0.4, target: 0.4 });
  });

  it('is none when the holder is one side: its licence, its principal author or its founder', () => {
    const byLicence = side({ own: 'Jane Roe', licences: [{ text: 'Copyright (c) 2020 YaoYuan' }] });
    expect(thirdPartyCode({ origin: byLicence, target: side({ own: 'Bob Moe' }) })).toBeNull();
    const byAuthor = side({
      own: 'Jane Roe',
      authors: { authors: [{ name: 'YaoYuan', email: 'ibireme@gmail.com', commits: 40 }], founder: null },
    });
    expect(thirdPartyCode({ origin: side({ own: 'Bob Moe' }), target: byAuthor })).toBeNull();
    const byFounder = side({ own: 'Jane Roe', authors: { authors: [], founder: { name: 'Somebody', email: 'ibireme@gmail.com' } } });
    expect(thirdPartyCode({ origin: byFounder, target: side({ own: 'Bob Moe' }) })).toBeNull();
  });

  it('is none when the holder s files are most of a side (an original whose every file carries its notice)', () => {
    const all = side({
      own: 'Jane Roe',
      code: [
        { path: 'lib/yyjson.c', tokens: 3000 },
        { path: 'src/main.c', tokens: 2000 },
      ],
    });
    expect(thirdPartyCode({ origin: all, target: side({ own: 'Bob Moe' }) })).toBeNull();
  });

  it('is none when the matched code lies mostly outside the holder s files', () => {
    const spread = side({
      own: 'Jane Roe',
      matched: new Map([
        ['lib/yyjson.c', 500],
        ['src/main.c', 500],
      ]),
    });
    expect(thirdPartyCode({ origin: spread, target: side({ own: 'Bob Moe' }) })).toBeNull();
  });

  it('reads only a file s head: a notice further down does not count', () => {
    const late = (s: SideThirdPartyInput): SideThirdPartyInput => ({
      ...s,
      heads: s.heads.map((h) => (h.path === 'lib/yyjson.c' ? { ...h, text: '\n'.repeat(60) + h.text } : h)),
    });
    expect(thirdPartyCode({ origin: late(side({ own: 'Jane Roe' })), target: side({ own: 'Bob Moe' }) })).toBeNull();
  });

  it('files beside a notice at the root are not the holder s: only its own file is', () => {
    const root = (s: SideThirdPartyInput): SideThirdPartyInput => ({
      ...s,
      heads: s.heads.map((h) => (h.path === 'lib/yyjson.c' ? { ...h, path: 'yyjson.c' } : h)),
      matched: new Map([
        ['yyjson.c', 700],
        ['main.c', 300],
      ]),
      code: [
        { path: 'yyjson.c', tokens: 3000 },
        { path: 'main.c', tokens: 5000 },
      ],
    });
    // 70% of the matched material is in yyjson.c: below THIRD_PARTY_MATCHED_SHARE, though main.c sits beside it.
    expect(thirdPartyCode({ origin: root(side({ own: 'Jane Roe' })), target: side({ own: 'Bob Moe' }) })).toBeNull();
  });
});
