// A side's own address (engine 0.7.14). A project's address is where it is installed and imported from: a Go module
// path, the repository a package manifest names. A fork that keeps the project's name still has to take an address of
// its own (keybase/go-logging's go.mod says `module github.com/keybase/go-logging` while its README still names
// op/go-logging); the original keeps the address the shared history named, or moves it with its own people. So the
// first version of a side's manifest naming the project's repository under an owner the fork point never named marks
// that side's own departure from the shared line, as a rename does (former-identity.ts): the maintainers signal counts
// the side's later commits from then on. The shared history's authors' commits the side holds from before then went
// on with the line, not with the side; when the project's own people made the move and go on with it, they are
// counted after it as well.
import { BlobReader } from '../git/catfile';
import type { PairView } from '../git/pair-view';
import type { Deadline } from '../limits';
import type { NameRef } from '../types';
import { hostedRepo, namesIn, sameName } from './names';

const HEX40 = /^[0-9a-f]{40}$/;
const MAX_MANIFEST_BYTES = 256 * 1024;
/**
 * Own mainline commits under the new address for it to mark a departure: as many as a side needs for the maintainers
 * signal to read who went on with it (THIRD_LINE.ownCommits in signals/maintainers.ts). Fewer, and the address says
 * nothing of who carried the project on.
 */
export const MIN_COMMITS_UNDER_ADDRESS = 3;
/** Versions read per side at most: a lower-bound search over the file's versions needs log2 of their number. */
const MAX_ADDRESS_READS = 24;

/** A manifest's own address: a Go module path, a package manifest's repository (a README cites too much else). */
const isManifestAddress = (n: Pick<NameRef, 'kind' | 'key'>): boolean =>
  (n.kind === 'module' || n.kind === 'url') && n.key !== 'url:readme';

/** `owner/repo` of an address name: a `url` name is one already, a module path names its host. */
export function addressOf(n: Pick<NameRef, 'kind' | 'name'>): { owner: string; repo: string } | null {
  const r = n.kind === 'url' ? n.name : n.kind === 'module' ? hostedRepo(n.name) : null;
  const m = r ? /^([^/]+)\/([^/]+)$/.exec(r) : null;
  return m ? { owner: m[1]!, repo: m[2]! } : null;
}

/** The addresses the fork point's own files name the project under (every address, the README's as well). */
export function forkPointAddresses(forkNames: readonly NameRef[]): { owner: string; repo: string }[] {
  const out = new Map<string, { owner: string; repo: string }>();
  for (const n of forkNames) {
    const a = addressOf(n);
    if (a) out.set(`${a.owner}/${a.repo}`, a);
  }
  return [...out.keys()].sort().map((k) => out.get(k)!);
}

/**
 * The side's pinned manifest addresses that keep a repository name the fork point named under another owner, and
 * under no owner the fork point named: the project's name at an address of the side's own (keybase/go-logging, where
 * the fork point named op/go-logging), each with the fork point's address it replaced. A repository the fork point
 * cited under another name (a dependency its README links to) is not the project's address.
 */
export function ownAddresses(
  pinned: readonly NameRef[],
  fork: readonly { owner: string; repo: string }[],
): { name: NameRef; former: string; current: string }[] {
  const out: { name: NameRef; former: string; current: string }[] = [];
  for (const n of pinned) {
    if (!isManifestAddress(n) || n.path.includes('/')) continue;
    const a = addressOf(n);
    if (!a || fork.some((f) => f.owner === a.owner)) continue;
    const was = fork.find((f) => sameName(f.repo, a.repo));
    if (was) out.push({ name: n, former: `${was.owner}/${was.repo}`, current: `${a.owner}/${a.repo}` });
  }
  return out.sort((x, y) => (x.name.key < y.name.key ? -1 : x.name.key > y.name.key ? 1 : x.current < y.current ? -1 : 1));
}

export interface AddressArrival {
  key: string;
  /** the fork point's address of the project, `owner/repo` */
  former: string;
  /** the side's own address, `owner/repo` */
  current: string;
  /** committer time of the oldest version of the file, on the side's own commits, that carries the address */
  at: number;
}

/**
 * When each side took its own address: for the earliest-arriving of its own addresses, the oldest version of the file
 * among the side's own commits (after the fork point) that carries it, found by a lower-bound search over the file's
 * versions (an address, once taken, is kept: the pinned version carries it). Null when the side took none, or carried
 * it already where its own commits begin.
 */
export async function addressArrivals(
  view: PairView,
  heads: { origin: string; target: string },
  bases: readonly string[],
  forkNames: readonly NameRef[],
  pinned: { origin: readonly NameRef[]; target: readonly NameRef[] },
  opts: { deadline: Deadline; signal?: AbortSignal },
): Promise<{ origin: AddressArrival | null; target: AddressArrival | null }> {
  const out: { origin: AddressArrival | null; target: AddressArrival | null } = { origin: null, target: null };
  const fork = forkPointAddresses(forkNames);
  if (!fork.length || !bases.length) return out;
  const reader = new BlobReader(view.gitDir);
  try {
    for (const side of ['origin', 'target'] as const) {
      for (const { name: n, former, current } of ownAddresses(pinned[side], fork)) {
        const versions = (
          await view.run(
            [
              'log',
              '--reverse',
              '--format=%x01%ct',
              '--raw',
              '--no-abbrev',
              '--no-renames',
              '--end-of-options',
              heads[side],
              ...bases.map((b) => `^${b}`),
              '--',
              n.path,
            ],
            { signal: opts.signal, timeoutMs: opts.deadline.remainingMs(), maxOutputBytes: 16 * 1024 * 1024 },
          )
        )
          .toString('utf8')
          .split('\x01')
          .flatMap((rec) => {
            const nl = rec.indexOf('\n');
            const time = Number(rec.slice(0, nl < 0 ? undefined : nl));
            const raw = rec.split('\n').find((l) => l.startsWith(':') && l.endsWith(`\t${n.path}`));
            const blob = raw?.slice(1, raw.indexOf('\t')).split(' ')[3] ?? '';
            return HEX40.test(blob) && !/^0+$/.test(blob) ? [{ time, blob }] : [];
          });
        const carries = async (i: number): Promise<boolean> => {
          const b = await reader.readBlob(versions[i]!.blob, MAX_MANIFEST_BYTES);
          return b !== null && namesIn(n.path, b.toString('utf8'), versions[i]!.blob, '').some((x) => x.key === n.key && x.name === n.name);
        };
        // Lower bound: the oldest version from which every later one carries the address (the pinned one does).
        let lo = 0;
        let hi = versions.length;
        for (let reads = 0; lo < hi && reads < MAX_ADDRESS_READS; reads++) {
          const mid = (lo + hi) >> 1;
          if (await carries(mid)) hi = mid;
          else lo = mid + 1;
        }
        if (lo >= versions.length) continue; // no own version carries it: the side began with it, or the file is older
        const arrival: AddressArrival = { key: n.key, former, current, at: versions[lo]!.time };
        if (!out[side] || arrival.at < out[side]!.at) out[side] = arrival;
      }
      opts.deadline.check();
    }
    return out;
  } finally {
    reader.close();
  }
}
