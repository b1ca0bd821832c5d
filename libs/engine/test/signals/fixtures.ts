// Builders shared by the lineage signals' tests (not a test file itself).
import type { NameRef, Topology } from '../../src/types';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import type { SideLineageInput } from '../../src/lineage/signals/index';

export const FORK = 'f'.repeat(40);

/** A name as the names reader returns it: README names in README.md, the others in package.json. */
export const name = (kind: NameRef['kind'], n: string, key: string, commit = FORK): NameRef => ({
  name: n,
  kind,
  key,
  path: key.endsWith('readme') ? 'README.md' : 'package.json',
  line: 1,
  blobId: 'b'.repeat(40),
  commit,
});

export const author = (n: string, commits: number) => ({ name: n, email: `${n}@x`, commits });

/** A topology with one fork point and the given counts, names, authors, merges. */
export const forked = (t: Partial<Topology> = {}): Topology => ({
  ...EMPTY_TOPOLOGY(),
  forkPoints: [{ commit: FORK, time: 1_600_000_000 }],
  sharedCommits: 100,
  ...t,
});

/** A side with a README (when given) and the given current names. */
export const side = (pinned: NameRef[] = [], readme?: string, extra: Partial<SideLineageInput> = {}): SideLineageInput => ({
  names: { pinned, past: [] },
  docs: readme === undefined ? [] : [{ path: 'README.md', blobId: 'c'.repeat(40), text: readme }],
  ...extra,
});
