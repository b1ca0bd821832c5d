import { copyrightHolders, licenceAttribution, LICENCE_FILE, type SideAuthors } from '../src/lineage/licence';

const MIT = (holders: string): string =>
  `The MIT License (MIT)\n\n${holders}\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n` +
  'The above copyright notice and this permission notice shall be included in all\ncopies or substantial portions of the Software.\n';

const side = (authors: [string, string, number][], founder: [string, string] | null = null): SideAuthors => ({
  authors: authors.map(([name, email, commits]) => ({ name, email, commits })),
  founder: founder ? { name: founder[0], email: founder[1] } : null,
});
const lic = (text: string) => [{ path: 'LICENSE', blobId: 'b'.repeat(40), text }];

// Carbon (Brian Nesbitt founded it; KyleKatarn made most later commits) and chronos (CakePHP's re-import of it).
const carbon = side(
  [
    ['KyleKatarn', 'kylekatarnls@gmail.com', 1203],
    ['Brian Nesbitt', 'brian@nesbot.com', 537],
    ['Lucas Michot', 'lucas@semalead.com', 300],
  ],
  ['Brian Nesbitt', 'brian@nesbot.com'],
);
const chronos = side(
  [
    ['Mark Story', 'mark@mark-story.com', 241],
    ['Jose Lorenzo Rodriguez', 'jose.zap@gmail.com', 39],
  ],
  ['Jose Lorenzo Rodriguez', 'jose.zap@gmail.com'],
);

describe('copyright holders', () => {
  it('reads the names and addresses of each copyright line, without years, (c), URLs or "All rights reserved"', () => {
    const h = copyrightHolders(
      'Copyright (C) Brian Nesbitt\nCopyright (C) Cake Software Foundation, Inc. (https://cakefoundation.org)\n' +
        ' * Copyright © 2012-2015, Jane Roe and John Doe <john@doe.example>. All rights reserved.\n' +
        'The above copyright notice and this permission notice shall be included\n',
    );
    expect(h).toEqual([
      { line: 1, holder: 'Brian Nesbitt', names: ['Brian Nesbitt'], emails: [] },
      { line: 2, holder: 'Cake Software Foundation, Inc', names: ['Cake Software Foundation'], emails: [] },
      { line: 3, holder: 'Jane Roe and John Doe', names: ['Jane Roe', 'John Doe'], emails: ['john@doe.example'] },
    ]);
  });

  it('names the licence files of a root', () => {
    for (const f of ['LICENSE', 'LICENCE.md', 'LICENSE-MIT', 'COPYING', 'COPYING.LIB', 'MIT-LICENSE', 'license.txt', 'LICENSE-APACHE-2.0'])
      expect(LICENCE_FILE.test(f)).toBe(true);
    for (const f of ['README.md', 'licenses.json', 'LICENSE_HEADER.java', 'license.go']) expect(LICENCE_FILE.test(f)).toBe(false);
  });
});

describe('licence attribution', () => {
  it("finds the side whose licence keeps the other side's founder, who made none of its commits", () => {
    const a = licenceAttribution(
      {
        origin: lic(MIT('Copyright (C) Brian Nesbitt')),
        target: lic(MIT('Copyright (C) Brian Nesbitt\nCopyright (C) Cake Software Foundation, Inc.')),
      },
      { origin: carbon, target: chronos },
    );
    expect(a).toMatchObject({ by: 'target', line: 3, holder: 'Brian Nesbitt', commits: 537, of: 2040, founder: true });
  });

  it('matches by e-mail address too, and mirrors with the sides', () => {
    const a = licenceAttribution(
      { origin: lic(MIT('Copyright (c) 2016 B. N. <brian@nesbot.com>')), target: lic(MIT('Copyright (C) Brian Nesbitt')) },
      { origin: chronos, target: carbon },
    );
    expect(a).toMatchObject({ by: 'origin', commits: 537 });
  });

  it('needs a principal author: the founder, or a tenth of the commits', () => {
    const minor = side(
      [...carbon.authors.map((x) => [x.name, x.email, x.commits] as [string, string, number]), ['Pat Passer', 'pat@p.example', 20]],
      ['Brian Nesbitt', 'brian@nesbot.com'],
    );
    const by = (holder: string) =>
      licenceAttribution({ origin: lic(MIT('Copyright (C) Brian Nesbitt')), target: lic(MIT(holder)) }, { origin: minor, target: chronos });
    expect(by('Copyright (c) Pat Passer')).toBeNull(); // 20 of 2,060 commits
    expect(by('Copyright (c) Lucas Michot')).toMatchObject({ by: 'target', founder: false, commits: 300 }); // 300 of 2,060
    expect(by('Copyright (c) KyleKatarn, Pat Passer')).toMatchObject({ by: 'target', holder: 'KyleKatarn, Pat Passer', commits: 1203 });
  });

  it('is nothing when the holder made commits on the side whose licence names them (one author, two projects)', () => {
    const both = side([
      ...chronos.authors.map((x) => [x.name, x.email, x.commits] as [string, string, number]),
      ['Brian Nesbitt', 'brian@nesbot.com', 2],
    ]);
    expect(
      licenceAttribution(
        { origin: lic(MIT('Copyright (C) Brian Nesbitt')), target: lic(MIT('Copyright (C) Brian Nesbitt')) },
        { origin: carbon, target: both },
      ),
    ).toBeNull();
  });

  it("is nothing when each licence names the other's author, or none does", () => {
    const crossed = { origin: lic(MIT('Copyright (c) Mark Story')), target: lic(MIT('Copyright (C) Brian Nesbitt')) };
    expect(licenceAttribution(crossed, { origin: carbon, target: chronos })).toBeNull();
    const own = { origin: lic(MIT('Copyright (c) Brian Nesbitt')), target: lic(MIT('Copyright (C) Mark Story')) };
    expect(licenceAttribution(own, { origin: carbon, target: chronos })).toBeNull();
  });

  it('ignores automation and the body of a licence', () => {
    const bot = side(
      [['dependabot[bot]', '49699333+dependabot[bot]@users.noreply.github.com', 900]],
      ['dependabot[bot]', 'x@users.noreply.github.com'],
    );
    expect(
      licenceAttribution({ origin: lic(MIT('')), target: lic(MIT('Copyright (c) dependabot[bot]')) }, { origin: bot, target: chronos }),
    ).toBeNull();
    const holders = side([['Copyright Holders', 'h@x.example', 50]], ['Copyright Holders', 'h@x.example']);
    expect(licenceAttribution({ origin: lic(MIT('')), target: lic(MIT('')) }, { origin: holders, target: chronos })).toBeNull();
  });
});
