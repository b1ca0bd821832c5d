import { candidates, findSuccessor } from '../../src/lineage/declarations';
import { readmeTitle } from '../../src/lineage/names';
import { reading } from '../../src/lineage/signals/reading';
import { successor } from '../../src/lineage/signals/successor';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import type { Topology } from '../../src/types';
import { forked, name, side } from './fixtures';
import type { SideLineageInput } from '../../src/lineage/signals/index';

const ctx = (topo: Topology, origin: SideLineageInput, target: SideLineageInput) =>
  reading({ topo, sides: { origin, target }, shared: topo.forkPoints.length > 0 });

describe('the successor signal', () => {
  const jwt = side([name('url', 'golang-jwt/jwt', 'url:readme')], '# jwt-go\n');
  const notice =
    '# jwt-go\n\nTHIS REPOSITORY IS NO LONGER MAINTAINED. The new repository can be found at https://github.com/golang-jwt/jwt\n';

  it('makes the side that points at the other as where the project went on the original', () => {
    const r = ctx(forked({ forkPointNames: [name('title', 'jwt-go', 'title:readme')] }), side([], notice), jwt);
    const s = successor(r, 'origin');
    expect(s.named).toBe(true);
    expect(s.votes).toEqual([expect.objectContaining({ kind: 'SUCCESSOR', original: 'origin', weight: 3 })]);
    expect(s.evidence.map((e) => [e.kind, e.origin?.path, e.origin?.startLine])).toEqual([['SUCCESSOR_NAMED', 'README.md', 3]]);
    expect(s.chronology).toEqual([
      {
        kind: 'SUCCESSOR_NAMED',
        side: 'origin',
        time: null,
        commit: null,
        detail: 'README.md:3 names the other repository as where the project went on',
      },
    ]);
    expect(successor(r, 'target').named).toBe(false);
  });

  it("counts only the other side's own current name, not the shared project's, and reads nested READMEs", () => {
    const shared = forked({ forkPointNames: [name('url', 'golang-jwt/jwt', 'url:readme')] });
    expect(successor(ctx(shared, side([], notice), jwt), 'origin').named).toBe(false);
    const nested = side([], '# kit\n', { nestedDocs: [{ path: 'log/README.md', blobId: 'd'.repeat(40), text: notice }] });
    const s = successor(ctx(EMPTY_TOPOLOGY(), nested, jwt), 'origin');
    expect(s.evidence[0]!.origin).toEqual({ path: 'log/README.md', startLine: 3, endLine: 3, blobId: 'd'.repeat(40) });
  });
});

describe('an address the other side gave up since (0.7.19)', () => {
  // zip-rs/zip-old's notice, against zip-rs/zip2, whose manifest gave Pr0methean/zip for a year.
  const notice = '# zip has moved\n\nThe zip crate has moved to https://github.com/Pr0methean/zip. Please submit all issues there.\n';
  const zip2 = (past: string[]) => ({
    ...side([name('url', 'zip-rs/zip2', 'url:readme')], '# zip\n'),
    names: { pinned: [name('url', 'zip-rs/zip2', 'url:readme')], past: past.map((p) => name('url', p, 'url:cargo.toml')) },
  });
  const topo = forked({ forkPointNames: [name('url', 'zip-rs/zip', 'url:readme')] });

  it('still names the other side: the address it gave as its own, which the writer never gave', () => {
    expect(successor(ctx(topo, side([], notice), zip2(['pr0methean/zip'])), 'origin').votes).toEqual([
      expect.objectContaining({ kind: 'SUCCESSOR', original: 'origin', weight: 3 }),
    ]);
    expect(successor(ctx(topo, side([], notice), zip2([])), 'origin').named).toBe(false);
  });

  it("does not count an address the writer gave too, the shared project's, or a name that is not an address", () => {
    const writer = { ...side([], notice), names: { pinned: [], past: [name('url', 'pr0methean/zip', 'url:readme')] } };
    expect(successor(ctx(topo, writer, zip2(['pr0methean/zip'])), 'origin').named).toBe(false);
    const shared = forked({ forkPointNames: [name('url', 'pr0methean/zip', 'url:readme')] });
    expect(successor(ctx(shared, side([], notice), zip2(['pr0methean/zip'])), 'origin').named).toBe(false);
    const titled = { ...zip2([]), names: { pinned: [], past: [name('package', 'pr0methean-zip', 'package:cargo.toml')] } };
    const moved = side([], '# zip\n\nThe crate has moved to pr0methean-zip.\n');
    expect(successor(ctx(topo, moved, titled), 'origin').named).toBe(false);
  });
});

describe('an original pointing at its successor', () => {
  const find = (text: string, other: string[]) => findSuccessor([{ path: 'README.md', text }], new Set(other), new Set())?.name ?? null;

  it('reads a re-branding or a renaming (0.6.8)', () => {
    expect(
      find(
        'We are pleased to announce that GS Collections has been migrated to the Eclipse Foundation, re-branded as [Eclipse Collections](https://github.com/eclipse-collections/eclipse-collections).',
        ['eclipse-collections/eclipse-collections'],
      ),
    ).toBe('eclipse-collections/eclipse-collections');
    expect(find('The project was renamed to valkey and moved.', ['valkey'])).toBe('valkey');
  });

  it('finds the successor anywhere in the sentence', () => {
    expect(
      find('# THIS REPOSITORY IS NO LONGER MAINTAINED\n\nThe new repository can be found at: https://github.com/golang-jwt/jwt\n', [
        'golang-jwt/jwt',
      ]),
    ).toBe('golang-jwt/jwt');
    expect(
      find(
        'This repository is archived as htop is now maintained by a team of volunteers at [htop.dev](https://htop.dev/) using an organisation-based git [repository](https://github.com/htop-dev/htop/).',
        ['htop-dev/htop'],
      ),
    ).toBe('htop-dev/htop');
    expect(
      find(
        'Feel free to browse the code, but please use other JavaScript neural network libraries in development like [brain.js](https://github.com/BrainJS/brain.js).',
        ['brain.js'],
      ),
    ).toBe('brain.js');
  });

  it('reads an original naming who maintains it on', () => {
    // thoughtbot/paperclip's deprecation notice.
    expect(
      find(
        'Alternatively, for existing projects, [Kreeti](https://www.kreeti.com/) is maintaining [kt-paperclip](https://github.com/kreeti/kt-paperclip), an ongoing [fork of Paperclip](https://github.com/kreeti/kt-paperclip).',
        ['kreeti/kt-paperclip'],
      ),
    ).toBe('kreeti/kt-paperclip');
  });

  it('reads an original saying where its development continues, or that a fork of it is maintained', () => {
    // src-d/go-git's README, and eslint/typescript-eslint-parser's.
    expect(
      find('## WE CONTINUE THE DEVELOPMENT AT [go-git/go-git](https://github.com/go-git/go-git). This repository is abandoned', [
        'go-git/go-git',
      ]),
    ).toBe('go-git/go-git');
    expect(find('Development continues at example/next, where issues are tracked.', ['example/next'])).toBe('example/next');
    expect(
      find('There is an actively maintained fork of this project available at https://github.com/example/next.', ['example/next']),
    ).toBe('example/next');
  });

  it('needs a pointing phrase', () => {
    expect(find('See also golang-jwt/jwt for another implementation.', ['golang-jwt/jwt'])).toBeNull();
  });
  it('reads names with underscores whole, emphasis aside (0.6.14)', () => {
    // squizlabs/PHP_CodeSniffer's notice: the link text and the URL both name the successor's repository.
    expect(
      find(
        '> [!WARNING]\n> This repository has been abandoned. Its successor is [PHPCSStandards/PHP_CodeSniffer](https://github.com/PHPCSStandards/PHP_CodeSniffer/)\n',
        ['phpcsstandards/php_codesniffer'],
      ),
    ).toBe('phpcsstandards/php_codesniffer');
    expect(find('This project is now maintained at __typing_extensions__.', ['typing_extensions'])).toBe('typing_extensions');
    expect(candidates('a fork of _PHP_CodeSniffer_, see *x_y*')).toEqual(['a', 'fork', 'of', 'php_codesniffer', 'see', 'x_y']);
    expect(readmeTitle('# PHP_CodeSniffer\n')).toEqual({ title: 'php_codesniffer', line: 1 });
    expect(readmeTitle('# _Emphasised_\n')).toEqual({ title: 'emphasised', line: 1 });
  });
});
