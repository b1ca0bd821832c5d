import { lineageSignals } from '../src/lineage/signals';
import { EMPTY_TOPOLOGY } from '../src/lineage/topology';
import type { NameRef, Rename, Topology } from '../src/types';

const name = (kind: NameRef['kind'], n: string, key: string, commit = 'f'.repeat(40)): NameRef => ({
  name: n,
  kind,
  key,
  path: key.endsWith('readme') ? 'README.md' : 'package.json',
  line: 1,
  blobId: 'b'.repeat(40),
  commit,
});

/** A fork point whose README cites form-data/form-data most and whose package is `request`; the origin's README then cites `to`. */
function signalsWithReadmeRepo(to: string): string[] {
  const topo: Topology = {
    ...EMPTY_TOPOLOGY(),
    forkPoints: [{ commit: 'f'.repeat(40), time: 1_545_000_000 }],
    sharedCommits: 2263,
    originOnly: 436,
    targetOnly: 300,
    forkPointNames: [name('package', 'request', 'package:package.json'), name('url', 'form-data/form-data', 'url:readme')],
    renames: {
      origin: [
        {
          key: 'url:readme',
          kind: 'url',
          from: 'form-data/form-data',
          to,
          commit: 'a'.repeat(40),
          time: 1_543_000_000,
          path: 'README.md',
        } as Rename,
      ],
      target: [],
    },
  };
  const side = (url: string) => ({
    names: { pinned: [name('package', 'request', 'package:package.json'), name('url', url, 'url:readme')], past: [] },
    docs: [],
  });
  const out = lineageSignals(topo, { origin: side(to), target: side('form-data/form-data') }, { origin: 0, target: 0 });
  return out.result.signals.filter((s) => Number(s.weight) > 0).map((s) => s.kind);
}

describe('a side renamed at the fork point', () => {
  it("took a name that is new, not the shared project's own (postman-request came to cite request/request most)", () => {
    expect(signalsWithReadmeRepo('request/request')).not.toContain('RENAMED_AT_FORK');
    expect(signalsWithReadmeRepo('cypress-io/request')).not.toContain('RENAMED_AT_FORK');
    expect(signalsWithReadmeRepo('placeholdermc/placeholdermc')).toContain('RENAMED_AT_FORK');
  });
});
