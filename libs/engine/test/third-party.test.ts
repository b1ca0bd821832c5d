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

  it('finds the holder of the whole code of two uploads (snapshots of a few commits), but not of one upload and a project', () => {
    const whole = (own: string): SideThirdPartyInput =>
      side({
        own,
        code: [
          { path: 'lib/yyjson.c', tokens: 3000 },
          { path: 'src/main.c', tokens: 20 },
        ],
      });
    expect(thirdPartyCode({ origin: whole('Jane Roe'), target: whole('Bob Moe') })).toBeNull();
    const r = thirdPartyCode({ origin: whole('Jane Roe'), target: whole('Bob Moe') }, true);
    expect(r).toMatchObject({ holder: 'YaoYuan', embedded: false });
    expect(r!.codeShare.origin).toBeGreaterThan(0.99);
    // Under the bound, the flag changes nothing: a library both embed.
    expect(thirdPartyCode({ origin: side({ own: 'Jane Roe' }), target: side({ own: 'Bob Moe' }) }, true)).toMatchObject({ embedded: true });
    // The holder being one side's own stays a reason for none.
    const byAuthor = {
      ...whole('Jane Roe'),
      authors: { authors: [{ name: 'YaoYuan', email: 'ibireme@gmail.com', commits: 1 }], founder: null },
    };
    expect(thirdPartyCode({ origin: byAuthor, target: whole('Bob Moe') }, true)).toBeNull();
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

  // SQLite's blessing (sqlite3.h, the amalgamation) names no holder; Lua's files point at the notice in lua.h.
  const SQLITE =
    '/*\n** 2001-09-15\n**\n** The author disclaims copyright to this source code.  In place of\n** a legal notice, here is a blessing:\n*/\n';
  const LUA = '/*\n** $Id: lapi.c $\n** Lua API\n** See Copyright Notice in lua.h\n*/\n';
  const embedding = (own: string, head: string, path: string, libTokens: number, over: Partial<SideThirdPartyInput> = {}) =>
    side({
      own,
      heads: [
        { path, blobId: 'c'.repeat(40), text: head },
        { path: 'src/main.c', blobId: 'b'.repeat(40), text: `/* Copyright 2023 ${own} */\n` },
      ],
      matched: new Map([
        [path, 950],
        ['src/main.c', 50],
      ]),
      code: [
        { path, tokens: libTokens },
        { path: 'src/main.c', tokens: 1000 },
      ],
      ...over,
    });

  it('reads a public-domain dedication on both sides as a library both embed, unless a side dedicates its own code so', () => {
    const r = thirdPartyCode({
      origin: embedding('Jane Roe', SQLITE, 'sqlite3-binding.h', 250),
      target: embedding('Bob Moe', SQLITE, 'libsqlite3-sys/sqlite3/sqlite3.h', 250),
    });
    expect(r).toMatchObject({ holder: 'the public domain', notice: 'dedication', origin: { line: 4 }, target: { line: 4 } });
    const unlicensed = embedding('Jane Roe', SQLITE, 'sqlite3.h', 250, {
      licences: [{ text: 'This is free and unencumbered software released into the public domain.\n' }],
    });
    expect(thirdPartyCode({ origin: unlicensed, target: embedding('Bob Moe', SQLITE, 'sqlite3.h', 250) })).toBeNull();
  });

  it('reads a pointer to a notice in another file, the same on both sides, up to LIBRARY_CODE_SHARE of a side', () => {
    // dew and lua_sandbox: Lua is 57% and 55% of their code.
    const r = thirdPartyCode({
      origin: embedding('Jane Roe', LUA, 'src/lua/lapi.c', 1300),
      target: embedding('Bob Moe', LUA, 'include/lua/lapi.c', 1200),
    });
    expect(r).toMatchObject({ holder: 'lua.h', notice: 'pointer', origin: { path: 'src/lua/lapi.c', line: 4 } });
    expect(r!.codeShare.origin).toBeCloseTo(1300 / 2300);
    // Lua itself (or a side that is nearly all Lua) is not embedding it.
    expect(
      thirdPartyCode({ origin: embedding('Jane Roe', LUA, 'src/lua/lapi.c', 9000), target: embedding('Bob Moe', LUA, 'lua/lapi.c', 1200) }),
    ).toBeNull();
    // Pointers at different files are different notices.
    const other = embedding('Bob Moe', LUA.replace('lua.h', 'luajit.h'), 'lua/lapi.c', 1200);
    expect(thirdPartyCode({ origin: embedding('Jane Roe', LUA, 'src/lua/lapi.c', 1300), target: other })).toBeNull();
  });

  it("a named holder's files stay under THIRD_PARTY_CODE_SHARE of a side (a company's notice on an original's files)", () => {
    const named = (own: string) => embedding(own, MIT('Acme Corp'), 'lib/acme.c', 1300);
    expect(thirdPartyCode({ origin: named('Jane Roe'), target: named('Bob Moe') })).toBeNull();
  });
});
