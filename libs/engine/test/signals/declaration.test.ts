import { lineageSignals } from '../../src/lineage/signals/index';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import type { Topology } from '../../src/types';
import { declaration, declarationsFound, historyAgrees, siblings, strongerDeclaration } from '../../src/lineage/signals/declaration';
import { reading } from '../../src/lineage/signals/reading';
import { author, forked, name, side } from './fixtures';

/**
 * kubernetes-sigs/yaml: "a permanent fork of ghodss/yaml". The shared history's main author made none of either
 * side's later commits, and the fork point had no package name: only the README's repository tells who is ghodss/yaml.
 */
function declarationWeight(originReadmeRepo: string, originUrl?: string): number {
  const a = (n: string, commits: number) => ({ name: n, email: `${n}@x`, commits });
  const topo: Topology = {
    ...EMPTY_TOPOLOGY(),
    forkPoints: [{ commit: 'f'.repeat(40), time: 1_534_000_000 }],
    sharedCommits: 30,
    originOnly: 12,
    targetOnly: 114,
    authors: {
      preFork: [a('sam', 19), a('fabiano', 2), a('darshan', 2)],
      origin: [a('michael', 3), a('xia', 2), a('kishan', 2)],
      target: [a('jordan', 20), a('davanum', 15), a('tim', 10)],
    },
    forkPointNames: [name('url', 'ghodss/yaml', 'url:readme')],
  };
  const readme = 'kubernetes-sigs/yaml is a permanent fork of [ghodss/yaml](https://github.com/ghodss/yaml).';
  const out = lineageSignals(
    topo,
    {
      origin: { url: originUrl, names: { pinned: [name('url', originReadmeRepo, 'url:readme')], past: [] }, docs: [] },
      target: {
        names: { pinned: [name('url', 'kubernetes-sigs/yaml', 'url:readme')], past: [] },
        docs: [{ path: 'README.md', text: readme, blobId: 'c'.repeat(40) }],
      },
    },
    { origin: 0, target: 0 },
  );
  return Number(out.result.signals.find((s) => s.kind === 'DECLARATION')?.weight ?? -1);
}

describe('a declaration naming a repository', () => {
  it("counts when the repository is the other side's own URL, though neither side keeps the shared history's authors", () => {
    expect(declarationWeight('ghodss/yaml', 'https://github.com/ghodss/yaml')).toBe(2);
  });

  it("is a third project both may descend from when only the other side's README names it as its own", () => {
    // form3tech-oss/jwt-go's README is still dgrijalva/jwt-go's; golang-jwt/jwt names dgrijalva/jwt-go as upstream.
    expect(declarationWeight('ghodss/yaml')).toBe(0);
    expect(declarationWeight('ghodss/yaml', 'https://github.com/someone/yaml')).toBe(0);
  });
});

/**
 * KeyDB and Valkey, two forks of Redis: their shared commits are Redis's, and Valkey's history goes on with Redis's
 * authors for three years before its own fork. Both READMEs say they are forks of Redis, the shared project's name.
 */
describe('two sides that both declare descent from the shared project', () => {
  const a = (n: string, commits: number) => ({ name: n, email: `${n}@x`, commits });
  const topo: Topology = {
    ...EMPTY_TOPOLOGY(),
    forkPoints: [{ commit: 'f'.repeat(40), time: 1_618_857_314 }],
    sharedCommits: 10211,
    originOnly: 17311,
    targetOnly: 2465,
    authors: {
      preFork: [a('antirez', 7000), a('oran', 400)],
      origin: [a('john', 3000), a('keydb-bot', 10)],
      target: [a('oran', 900), a('madelyn', 300), a('antirez', 600)],
    },
    forkPointNames: [name('title', 'redis', 'title:readme')],
  };
  const side = (title: string, readme: string) => ({
    names: { pinned: [name('title', title, 'title:readme')], past: [name('title', 'redis', 'title:readme', 'e'.repeat(40))] },
    docs: [{ path: 'README.md', text: readme, blobId: 'c'.repeat(40) }],
  });
  const run = (originReadme: string) =>
    lineageSignals(
      topo,
      {
        origin: side('keydb', originReadme),
        target: side(
          'valkey',
          '# Valkey\n\nThis project was forked from the open source Redis project right before the transition to new licenses.\n',
        ),
      },
      { origin: 0, target: 0 },
    );

  it('makes neither the original: the declarations point at a third project, whoever kept its authors', () => {
    const out = run('# KeyDB\n\nKeyDB is a fork of Redis that is multithreaded.\n');
    expect(out.declaration).toBeNull();
    expect(out.result.signals.filter((s) => s.kind === 'DECLARATION').map((s) => [s.original, s.weight])).toEqual([
      ['none', '0.0000'],
      ['none', '0.0000'],
    ]);
    expect(out.result.signals.find((s) => s.kind === 'MAINTAINERS')?.original).toBe('target');
    expect(out.result.original).toBe('none');
    expect(out.evidence.find((e) => e.kind === 'DECLARED_UPSTREAM')?.detail).toContain('declares descent from the shared project too');
  });

  it('when only Valkey says it, Valkey is still not the original: a side that calls itself a fork of the shared project is not its continuation (0.7.9)', () => {
    const out = run('# KeyDB\n\nA multithreaded database.\n');
    expect(out.result.signals.find((s) => s.kind === 'MAINTAINERS')).toMatchObject({ original: 'none', weight: '0.0000' });
    expect(out.result.original).toBe('none');
  });
});

/**
 * A project's own names never declare anything (0.7.0). An original deprecated in favour of a fork: its README says
 * "use foo-ng, a maintained fork of foo", where foo is its own name; the fork renamed its package and says it "is a
 * fork of the original foo project". Only the fork declares descent from another project.
 */
describe('an original citing its own name beside a fork that declares descent from it', () => {
  const a = (n: string, commits: number) => ({ name: n, email: `${n}@x`, commits });
  const topo: Topology = {
    ...EMPTY_TOPOLOGY(),
    forkPoints: [{ commit: 'f'.repeat(40), time: 1_600_000_000 }],
    sharedCommits: 400,
    originOnly: 1,
    targetOnly: 120,
    authors: { preFork: [a('ann', 380)], origin: [a('ann', 1)], target: [a('bob', 100), a('cy', 20)] },
    forkPointNames: [name('package', 'foo', 'package:package.json'), name('title', 'foo', 'title:readme')],
  };
  const side = (pkg: string, readme: string) => ({
    names: { pinned: [name('package', pkg, 'package:package.json'), name('title', 'foo', 'title:readme')], past: [] },
    docs: [{ path: 'README.md', text: readme, blobId: 'c'.repeat(40) }],
  });
  const out = lineageSignals(
    topo,
    {
      origin: side('foo', '# foo\n\nThis package is deprecated. Use [foo-ng](https://example.org/bar/foo-ng), a maintained fork of foo.\n'),
      target: side('foo-ng', '# foo\n\nThis repository is a fork of the original foo project, with fixes.\n'),
    },
    { origin: 0, target: 0 },
  );

  it('does not read the original as declaring descent from a third project: the signals that agree decide', () => {
    expect(out.result.original).toBe('origin');
    const declarations = out.result.signals.filter((s) => s.kind === 'DECLARATION');
    // The original's sentence begins with the fork's own name: it speaks of the fork and declares nothing (0.7.19;
    // before, it was read as the original's declaration and weighed 0 as its own name).
    expect(declarations.map((s) => [s.original, s.weight])).toEqual([['origin', '2.0000']]);
    expect(out.evidence.filter((e) => e.kind === 'DECLARED_UPSTREAM').map((e) => e.detail)).toEqual([
      expect.stringMatching(/^the target's README.md declares descent from "foo"/),
    ]);
    expect(out.evidence.map((e) => e.detail).join('\n')).not.toContain('so both descend from it');
  });
});

describe('a fork that kept fewer of the shared names than the original and cites one of them', () => {
  it('declares descent from the original: only the side that kept more of the names speaks of itself', () => {
    // postman-request: its package is postman-request, its README title still "Request"; request kept its package name
    // and changed its title. "This is a fork of the excellent `request` module" names the original.
    const topo: Topology = {
      ...EMPTY_TOPOLOGY(),
      forkPoints: [{ commit: 'f'.repeat(40), time: 1_545_000_000 }],
      sharedCommits: 2263,
      originOnly: 7,
      targetOnly: 436,
      forkPointNames: [name('package', 'request', 'package:package.json'), name('title', 'request', 'title:readme')],
    };
    const out = lineageSignals(
      topo,
      {
        origin: {
          names: { pinned: [name('package', 'request', 'package:package.json'), name('title', 'deprecated', 'title:readme')], past: [] },
          docs: [],
        },
        target: {
          names: {
            pinned: [name('package', 'postman-request', 'package:package.json'), name('title', 'request', 'title:readme')],
            past: [],
          },
          docs: [{ path: 'README.md', blobId: 'c'.repeat(40), text: '# Request\n\nThis is a fork of the excellent `request` module.\n' }],
        },
      },
      { origin: 0, target: 0 },
    );
    expect(out.result.signals.find((s) => s.kind === 'DECLARATION')).toMatchObject({ original: 'origin', weight: '2.0000' });
    expect(out.declaration).toEqual({ by: 'target', specific: false });
    expect(out.result.original).toBe('origin');
  });
});

/**
 * A README that denies descent ("this is not a clone of X") names X but declares nothing: the denial is shown as
 * evidence, and no declaration counts.
 */
describe('agreeing history signals against the siblings rule (0.7.0)', () => {
  const vote = (kind: 'MAINTAINERS' | 'IDENTITY' | 'RENAMED_AT_FORK', original: 'origin' | 'target', weight = 2) => ({
    votes: [{ kind, original, weight, detail: kind }],
    evidence: [],
    chronology: [],
  });

  it('needs two kinds of history signal on one side and none on the other', () => {
    expect(historyAgrees([vote('MAINTAINERS', 'origin'), vote('IDENTITY', 'origin')])).toBe(true);
    expect(historyAgrees([vote('MAINTAINERS', 'target')])).toBe(false);
    expect(historyAgrees([vote('MAINTAINERS', 'origin'), vote('IDENTITY', 'origin'), vote('IDENTITY', 'target', 0.5)])).toBe(false);
    expect(historyAgrees([vote('MAINTAINERS', 'origin'), vote('IDENTITY', 'origin', 0)])).toBe(false);
  });

  it('leaves two forks that each kept one of the shared names siblings, whatever their merges say', () => {
    // postman-request and cypress-io/request: both say they are forks of request; postman kept request's README title,
    // cypress its package name; postman merged request after the fork point, cypress did not.
    const topo = forked({
      sharedCommits: 2263,
      originOnly: 119,
      targetOnly: 58,
      syncMerges: { origin: 13, target: 0 },
      authors: { preFork: [author('mikeal', 600)], origin: [author('postman', 119)], target: [author('cypress', 58)] },
      forkPointNames: [name('package', 'request', 'package:package.json'), name('title', 'request', 'title:readme')],
    });
    const out = lineageSignals(
      topo,
      {
        origin: side(
          [name('package', 'postman-request', 'package:package.json'), name('title', 'request', 'title:readme')],
          '# Request\n\nThis is a fork of the excellent `request` module.\n',
        ),
        target: side(
          [name('package', 'request', 'package:package.json'), name('title', 'cypress request', 'title:readme')],
          '# Cypress request\n\nFork of request, maintained by Cypress.\n',
        ),
      },
      { origin: 0, target: 0 },
    );
    expect(out.result.signals.find((s) => s.kind === 'SYNC_MERGES')?.original).toBe('target');
    expect(out.result.original).toBe('none');
  });
});

describe('a denial of descent', () => {
  it('is evidence against a declaration, not for it', () => {
    const topo: Topology = { ...EMPTY_TOPOLOGY() };
    const out = lineageSignals(
      topo,
      {
        origin: { names: { pinned: [name('package', 'yarrow', 'package:package.json')], past: [] }, docs: [] },
        target: {
          names: { pinned: [name('package', 'zap', 'package:package.json')], past: [] },
          docs: [
            {
              path: 'README.md',
              blobId: 'c'.repeat(40),
              text: '# zap\n\nZap is not the same thing as yarrow; yarrow is a separate project. This is not a clone of yarrow.\n',
            },
          ],
        },
      },
      { origin: 0, target: 0 },
    );
    expect(out.declaration).toBeNull();
    expect(out.result.signals.some((s) => s.kind === 'DECLARATION')).toBe(false);
    const denial = out.evidence.find((e) => e.kind === 'DENIED_DESCENT');
    expect(denial?.detail).toContain('denies descent from "yarrow"');
    expect(denial?.target?.path).toBe('README.md');
  });
});

/**
 * Without shared history: pyenv's README says it "was forked from rbenv and ruby-build", a name node-build carried
 * (its history is ruby-build's); node-build's README says "Forked from Sam Stephenson's ruby-build". Both descend
 * from ruby-build, and neither is it.
 */
describe('a declaration naming a name the other side carried, without shared history', () => {
  const side = (pkg: string, past: string[], readme: string) => ({
    names: {
      pinned: [name('title', pkg, 'title:readme')],
      past: past.map((p) => name('title', p, 'title:readme', 'e'.repeat(40))),
    },
    docs: [{ path: 'README.md', text: readme, blobId: 'c'.repeat(40) }],
  });
  const pyenv = side('pyenv', [], '# pyenv\n\nThis project was forked from rbenv and ruby-build, and modified for Python.\n');
  const run = (originReadme: string) =>
    lineageSignals(EMPTY_TOPOLOGY(), { origin: side('node-build', ['ruby-build'], originReadme), target: pyenv }, { origin: 0, target: 0 });

  it('points at the other side while that side does not say it came from the name too', () => {
    const out = run('# node-build\n\nInstall Node.js versions.\n');
    expect(out.declaration).toEqual({ by: 'target', specific: false });
    expect(out.commonUpstream).toBeNull();
  });

  it('points at a third project when the other side declares descent from the same name', () => {
    const out = run("# node-build\n\nInstall Node.js versions. Forked from Sam Stephenson's ruby-build.\n");
    expect(out.declaration).toBeNull();
    expect(out.commonUpstream).toBe('ruby-build');
    const item = out.evidence.find((e) => e.kind === 'DECLARED_UPSTREAM')!;
    expect(item.detail).toContain("the origin's README.md declares descent from it too");
    expect(item.origin).toMatchObject({ path: 'README.md', startLine: 3 });
    expect(item.target).toMatchObject({ path: 'README.md', startLine: 3 });
  });

  it('leaves a history rewritten from the other side to speak: commits held under other ids are history in common', () => {
    // saphyr, "based on a fork of chyh1990's yaml-rust", replayed yaml-rust2's own commits.
    const rewritten = { ...EMPTY_TOPOLOGY(), rewritten: { commits: 401, origin: 485, target: 649, newest: 1_711_823_993 } };
    const readme = "# node-build\n\nInstall Node.js versions. Forked from Sam Stephenson's ruby-build.\n";
    const out = lineageSignals(rewritten, { origin: side('node-build', ['ruby-build'], readme), target: pyenv }, { origin: 0, target: 0 });
    expect(out.declaration).toEqual({ by: 'target', specific: false });
    expect(out.commonUpstream).toBeNull();
  });

  it('points at a third project when the other side declares descent from the name it carries itself', () => {
    // aperezdc/signify, "a portable version of the OpenBSD signify command", against signify-osx, "a macOS port of
    // OpenBSD's signify": the name is the origin's own, and the origin says it was made from a project of that name.
    const signify = side('signify', [], '# signify\n\nThis is a portable version of the OpenBSD `signify` command.\n');
    const osx = side('signify-osx', [], "# signify-osx\n\nA macOS port of OpenBSD's `signify` utility.\n");
    const out = lineageSignals(EMPTY_TOPOLOGY(), { origin: signify, target: osx }, { origin: 0, target: 0 });
    expect(out.declaration).toBeNull();
    expect(out.commonUpstream).toBe('signify');
    // Only a port or a version of its own name makes a side a second project: Jedi's README announcing "the successor
    // to Jedi" (another project of its author's) leaves parso, "pulled out of jedi", declaring descent from Jedi.
    const jedi = side('jedi', [], '# Jedi\n\nI released the successor to Jedi: Zuban.\n');
    const parso = side('parso', [], '# parso\n\nParso has been battle-tested by jedi. It was pulled out of jedi to be useful.\n');
    const pulled = lineageSignals(EMPTY_TOPOLOGY(), { origin: jedi, target: parso }, { origin: 0, target: 0 });
    expect(pulled.declaration).toEqual({ by: 'target', specific: true });
    expect(pulled.commonUpstream).toBeNull();
    // A portable mg that imports "all changes from the upstream OpenBSD mg repository" says where it came from too.
    const hboetes = side('mg', [], '# mg\n\nI just maintain the port, importing all changes from the upstream OpenBSD mg repository.\n');
    const ibara = side('mg-portable', [], '# mg-portable\n\nThis is a portable version of the Mg editor from OpenBSD.\n');
    expect(lineageSignals(EMPTY_TOPOLOGY(), { origin: hboetes, target: ibara }, { origin: 0, target: 0 }).commonUpstream).toBe('mg');
    const alone = side('signify', [], '# signify\n\nSign and verify files.\n');
    const declared = lineageSignals(EMPTY_TOPOLOGY(), { origin: alone, target: osx }, { origin: 0, target: 0 });
    expect(declared.declaration).toEqual({ by: 'target', specific: true });
    expect(declared.commonUpstream).toBeNull();
  });

  it("reads the other side's list of ports as about the declarer, not as that side's own descent (0.7.19)", () => {
    // google/re2's "Ports and Wrappers": "[RE2J](https://github.com/google/re2j) is a port of the RE2 C++ code to pure
    // Java", against re2j's "RE2/J is a port of C++ library RE2": RE2 does not say it came from a project called RE2.
    const re2 = side(
      're2',
      [],
      '# RE2\n\nA regular expression library.\n\n[re2j](https://github.com/google/re2j) is a port of the re2 C++ code to Java.\n',
    );
    const re2j = side('re2j', [], '# re2j\n\nre2j is a port of C++ library [re2](https://github.com/google/re2) to pure Java.\n');
    const out = lineageSignals(EMPTY_TOPOLOGY(), { origin: re2, target: re2j }, { origin: 0, target: 0 });
    expect(out.declaration).toEqual({ by: 'target', specific: true });
    expect(out.commonUpstream).toBeNull();
  });

  it("points at a third project when the declarer's own history went by the name and its founder is none of the other's people", () => {
    // jdujava/slstatus-jd carries slstatus's history (Aaron Marcher's first) and says "My fork of `slstatus`"; a fresh
    // upload of slstatus 1.1 carries the title slstatus, and its commits are Nick Luker's alone.
    const carrier = {
      names: { pinned: [], past: [name('title', 'slstatus', 'title:readme', 'e'.repeat(40))] },
      docs: [{ path: 'README.md', text: 'My fork of `slstatus`.\n', blobId: 'c'.repeat(40) }],
    };
    const upload = side('slstatus', [], '# slstatus\n\nsuckless status.\n');
    const topo = (uploader: string, latest = 'jdujava'): Topology => ({
      ...EMPTY_TOPOLOGY(),
      sideAuthors: {
        origin: { authors: [author(uploader, 12)], founder: { name: uploader, email: `${uploader}@x` } },
        target: {
          authors: [author('aaron', 353), author('jdujava', 12)],
          founder: { name: 'aaron', email: 'aaron@x' },
          latest: { name: latest, email: `${latest}@x` },
        },
      },
    });
    const out = lineageSignals(topo('nick'), { origin: upload, target: carrier }, { origin: 0, target: 0 });
    expect(out.declaration).toBeNull();
    expect(out.commonUpstream).toBe('slstatus');
    expect(out.evidence.find((e) => e.kind === 'DECLARED_UPSTREAM')!.detail).toContain('the project whose history the target holds');
    // The history's founder among the other side's people: the other side is that project, and the declaration names it.
    const own = lineageSignals(topo('aaron'), { origin: upload, target: carrier }, { origin: 0, target: 0 });
    expect(own.declaration).toEqual({ by: 'target', specific: true });
    expect(own.commonUpstream).toBeNull();
    // A history of the declarer's own: a fork that began as a copy of the other side under its name, and whose founder
    // still makes its commits (lowdown, begun from hoedown's files, "a fork of hoedown").
    const copy = lineageSignals(topo('nick', 'aaron'), { origin: upload, target: carrier }, { origin: 0, target: 0 });
    expect(copy.declaration).toEqual({ by: 'target', specific: true });
    expect(copy.commonUpstream).toBeNull();
  });

  it('points at a third project when the name links to a site named after it that the other side never gives', () => {
    // purarue/st, "My fork of [st](https://st.suckless.org/)", against afranson/st-0.9.2-patched, another build of st
    // that carries the name and names no site: both carry the name of the project at st.suckless.org.
    const carrier = side('st', [], '## st - simple terminal\n\nMy fork of [st](https://st.suckless.org/)\n');
    const build = (readme: string, url?: string) => ({ ...side('st', [], readme), ...(url ? { url } : {}) });
    const out = lineageSignals(EMPTY_TOPOLOGY(), { origin: carrier, target: build('# A patched st\n') }, { origin: 0, target: 0 });
    expect(out.declaration).toBeNull();
    expect(out.commonUpstream).toBe('st');
    expect(out.evidence.find((e) => e.kind === 'DECLARED_UPSTREAM')!.detail).toContain('it names the project at st.suckless.org');
    // The project itself names its site, or is hosted there: then the declaration names it.
    const namesIt = build('# st\n\nst is a simple terminal, see https://st.suckless.org for patches.\n');
    const hosted = build('# st\n', 'https://git.st.suckless.org/st');
    for (const target of [namesIt, hosted]) {
      const own = lineageSignals(EMPTY_TOPOLOGY(), { origin: carrier, target }, { origin: 0, target: 0 });
      expect(own.declaration).toEqual({ by: 'origin', specific: true });
      expect(own.commonUpstream).toBeNull();
    }
    // A side without a README or notice says nothing of the addresses it gives (QuakeSpasm's manual is Quakespasm.txt).
    const silent = { names: { pinned: [name('title', 'st', 'title:readme')], past: [] }, docs: [] };
    const unread = lineageSignals(EMPTY_TOPOLOGY(), { origin: carrier, target: silent }, { origin: 0, target: 0 });
    expect(unread.declaration).toEqual({ by: 'origin', specific: true });
    expect(unread.commonUpstream).toBeNull();
    // A link to a site not named after the project (a registry, a directory of many) says nothing of whose it is.
    const registry = side('st', [], '## st\n\nMy fork of [st](https://pypi.org/project/st/)\n');
    const plain = lineageSignals(EMPTY_TOPOLOGY(), { origin: registry, target: build('# A patched st\n') }, { origin: 0, target: 0 });
    expect(plain.declaration).toEqual({ by: 'origin', specific: true });
  });

  it('still points at the other side when that side says it is the project renamed', () => {
    const out = run('# node-build\n\nInstall Node.js versions. Formerly known as ruby-build.\n');
    expect(out.declaration).toEqual({ by: 'target', specific: false });
    expect(out.commonUpstream).toBeNull();
  });
});

describe('the declaration module on its own', () => {
  const r = (origin: string, target: string, topo: Topology = EMPTY_TOPOLOGY()) =>
    reading({
      topo,
      shared: topo.forkPoints.length > 0,
      sides: {
        origin: side([name('package', 'yarrow', 'package:package.json')], origin),
        target: side([name('package', 'zap', 'package:package.json')], target),
      },
    });
  const earlier = { identityWeight: { origin: 0, target: 0 }, continues: () => false };

  it('finds what each side declares, target first, and weighs a name the other side carries now at 3', () => {
    const ctx = r('# yarrow\n', '# zap\n\nZap is a fork of yarrow.\n');
    const found = declarationsFound(ctx);
    expect(Object.keys(found.found)).toEqual(['target']);
    expect(found.found.target).toMatchObject({ specific: true, repository: false, found: { name: 'yarrow', line: 3 } });
    const d = declaration(ctx, 'target', found.found.target!, earlier, false);
    expect([d.weight, d.specific, d.commonUpstream]).toEqual([3, true, null]);
    expect(d.votes).toEqual([
      {
        kind: 'DECLARATION',
        original: 'origin',
        weight: 3,
        detail: `the target's README.md declares descent from "yarrow", a name the origin carries`,
      },
    ]);
    expect(d.evidence.map((e) => [e.kind, e.strength, e.target?.startLine])).toEqual([['DECLARED_UPSTREAM', 'STRONG', 3]]);
    expect(d.chronology.map((c) => c.detail)).toEqual(['README.md:3 names the other repository as its origin']);
  });

  it('records a denial as an item of no weight, and no declaration', () => {
    const found = declarationsFound(r('# yarrow\n', '# zap\n\nThis is not a clone of yarrow.\n'));
    expect(found.found).toEqual({});
    expect(found.evidence.map((e) => [e.kind, e.strength, e.score])).toEqual([['DENIED_DESCENT', 'WEAK', '0.0000']]);
  });

  it('tells siblings only with shared history, when both name the shared project', () => {
    const fork = forked({ forkPointNames: [name('title', 'redis', 'title:readme')] });
    const both = r('# yarrow\n\nA fork of Redis.\n', '# zap\n\nForked from Redis.\n', fork);
    expect(siblings(both, declarationsFound(both).found)).toBe(true);
    const one = r('# yarrow\n', '# zap\n\nForked from Redis.\n', fork);
    expect(siblings(one, declarationsFound(one).found)).toBe(false);
  });

  it('keeps the heavier declaration, none when they weigh the same', () => {
    expect(strongerDeclaration({ target: { specific: false, weight: 2 } })).toEqual({ by: 'target', specific: false });
    expect(strongerDeclaration({ origin: { specific: true, weight: 3 }, target: { specific: false, weight: 2 } })).toEqual({
      by: 'origin',
      specific: true,
    });
    expect(strongerDeclaration({ origin: { specific: true, weight: 3 }, target: { specific: true, weight: 3 } })).toBeNull();
    expect(strongerDeclaration({})).toBeNull();
  });
});

/**
 * pingcap/errors and friendsofgo/errors, two forks of pkg/errors: friendsofgo followed pkg/errors for 20 more of Dave
 * Cheney's commits, then went on with its own people, its README saying "This package is a fork from
 * github.com/pkg/errors"; pingcap kept pkg/errors' README under its own module path.
 */
describe('a side that calls itself a fork of the shared project', () => {
  const a = (n: string, commits: number) => ({ name: n, email: `${n}@x`, commits });
  const topo: Topology = {
    ...EMPTY_TOPOLOGY(),
    forkPoints: [{ commit: 'f'.repeat(40), time: 1_520_804_715 }],
    sharedCommits: 122,
    originOnly: 75,
    targetOnly: 59,
    authors: {
      preFork: [a('dave', 84), a('fabstu', 4), a('alexey', 3)],
      origin: [a('greg', 20), a('lysu', 10), a('d3hunter', 9)],
      target: [a('dave', 13), a('aperezg', 24), a('joan', 9)],
    },
    forkPointNames: [name('url', 'pkg/errors', 'url:readme')],
  };
  const run = (targetReadme: string, targetName = 'friendsofgo/errors') =>
    lineageSignals(
      topo,
      {
        origin: { names: { pinned: [name('url', 'pingcap/errors', 'url:readme')], past: [] }, docs: [] },
        target: {
          names: { pinned: [name('url', targetName, 'url:readme')], past: [] },
          docs: [{ path: 'README.md', text: targetReadme, blobId: 'c'.repeat(40) }],
        },
      },
      { origin: 0, target: 0 },
    );
  const vote = (out: ReturnType<typeof run>, kind: string) => out.result.signals.find((s) => s.kind === kind);

  it("is not the original for holding the shared authors' later commits: they came from the project it names", () => {
    const out = run('This package is a fork from [github.com/pkg/errors](https://github.com/pkg/errors) package created by Dave Cheney.');
    expect(vote(out, 'DECLARATION')).toMatchObject({ original: 'none', weight: '0.0000' });
    expect(vote(out, 'MAINTAINERS')).toMatchObject({ original: 'none', weight: '0.0000' });
    expect(vote(out, 'MAINTAINERS')!.detail).toMatch(/whose own text calls it a fork of the shared project/);
    expect(out.original).toBeNull();
  });

  it('not when the name is its own: a deprecation notice pointing at "a more active fork of <own name>" speaks of the fork', () => {
    // ActiveState/appdirs: "You may want to check out platformdirs which is a more active fork of appdirs".
    const out = run('Note: deprecated. You may want to check out other/errors, which is a more active fork of pkg/errors.', 'pkg/errors');
    expect(vote(out, 'MAINTAINERS')).toMatchObject({ original: 'target', weight: '2.0000' });
  });

  it('without the sentence, the shared authors make it the original as before', () => {
    const out = run('Package errors provides simple error handling primitives.');
    expect(vote(out, 'MAINTAINERS')).toMatchObject({ original: 'target', weight: '2.0000' });
    expect(out.original).toBe('target');
  });
});

/**
 * rbsec/sslscan, "a fork of ioerror's version of sslscan", against DinoTools/sslscan: two forks of Jacob Appelbaum's
 * sslscan (GitHub ioerror) that both carry the name, neither keeping his people. Someone's version of a name is that
 * someone's project.
 */
describe("a declaration citing someone's version of a name", () => {
  const readme = "# sslscan\n\nThis is a fork of ioerror's version of sslscan (the original readme of which is included below).\n";
  const weight = (
    origin: { pinned?: ReturnType<typeof name>[]; later?: ReturnType<typeof author>[] } = {},
    text: string = readme,
  ): number => {
    const topo = forked({
      originOnly: 154,
      targetOnly: 684,
      authors: {
        preFork: [{ name: 'Jacob Appelbaum', email: 'jacob@example.invalid', commits: 80 }],
        origin: origin.later ?? [author('philipp', 134)],
        target: [author('rbsec', 456)],
      },
    });
    const out = lineageSignals(
      topo,
      {
        origin: side(origin.pinned ?? [name('project', 'sslscan', 'project:cmakelists.txt')]),
        target: side([name('project', 'sslscan', 'project:cmakelists.txt')], text),
      },
      { origin: 0, target: 0 },
    );
    return Number(out.result.signals.find((s) => s.kind === 'DECLARATION')?.weight ?? -1);
  };

  it('reads the possessor between the trigger and the name', () => {
    const r = reading({
      topo: forked(),
      sides: { origin: side([name('project', 'sslscan', 'project:cmakelists.txt')]), target: side([], readme) },
    } as Parameters<typeof reading>[0]);
    expect(declarationsFound(r).found.target?.found).toMatchObject({ name: 'sslscan', owner: 'ioerror' });
  });

  it("names a third project when the possessor is none of the other side's owners, names or people", () => {
    expect(weight()).toBe(0);
  });

  it('names the other side when the possessor owns its address, or is one of its people', () => {
    expect(
      weight({ pinned: [name('project', 'sslscan', 'project:cmakelists.txt'), name('url', 'ioerror/sslscan', 'url:readme')] }),
    ).toBeGreaterThan(0);
    expect(weight({ later: [{ name: 'Jacob Appelbaum', email: '1234+ioerror@users.noreply.github.com', commits: 40 }] })).toBeGreaterThan(
      0,
    );
    expect(weight({ later: [{ name: 'Ioerror Appelbaum', email: 'jacob@example.invalid', commits: 40 }] })).toBeGreaterThan(0);
  });

  it('reads whose version it is from the repository the name links to (go-faster/yaml: "a fork of [`yaml`](https://github.com/go-yaml/yaml)")', () => {
    const linked = '# sslscan\n\nThis is a fork of [`sslscan`](https://github.com/ioerror/sslscan) with STARTTLS.\n';
    expect(weight({}, linked)).toBe(0);
    expect(
      weight({ pinned: [name('project', 'sslscan', 'project:cmakelists.txt'), name('url', 'ioerror/sslscan', 'url:readme')] }, linked),
    ).toBeGreaterThan(0);
    // A link to another repository name is not whose version of this name it is.
    expect(weight({}, '# sslscan\n\nThis is a fork of sslscan (https://github.com/ioerror/openssl-patches).\n')).toBeGreaterThan(0);
  });
});
