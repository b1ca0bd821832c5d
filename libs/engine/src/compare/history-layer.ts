import { BlobReader } from '../git/catfile';
import { fingerprintFile } from '../fingerprint-file';
import type { Fingerprints, History, PathVersion } from '../types';

/** Commits present in both walked histories (same ids = same content and ancestry). */
export function sharedCommits(o: History, t: History): { count: number; newest: { id: string; time: number } | null; oldest: { id: string; time: number } | null } {
  const tIds = new Set(t.commits.map((c) => c.id));
  let count = 0;
  let newest: { id: string; time: number } | null = null;
  let oldest: { id: string; time: number } | null = null;
  for (const c of o.commits) {
    if (!tIds.has(c.id)) continue;
    count++;
    if (!newest || c.time > newest.time || (c.time === newest.time && c.id < newest.id)) newest = { id: c.id, time: c.time };
    if (!oldest || c.time < oldest.time || (c.time === oldest.time && c.id < oldest.id)) oldest = { id: c.id, time: c.time };
  }
  return { count, newest, oldest };
}

/** Names a repository goes by: URL basename, package/module names from its manifests. */
export function repoNames(url: string | undefined, fp: Fingerprints): string[] {
  const names = new Set<string>();
  if (url) {
    const m = /([^/:]+?)(?:\.git)?\/?$/.exec(url);
    if (m?.[1]) names.add(m[1].toLowerCase());
    const full = /(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)[/:]([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url);
    if (full?.[1]) names.add(full[1].toLowerCase());
  }
  for (const m of fp.manifests) {
    if (m.path === 'package.json') {
      try {
        const j = JSON.parse(m.text) as { name?: unknown };
        if (typeof j.name === 'string' && j.name.length >= 3) names.add(j.name.toLowerCase());
      } catch {
        /* ignored */
      }
    } else if (m.path === 'go.mod') {
      const mm = /^module\s+(\S+)/m.exec(m.text);
      if (mm?.[1]) names.add(mm[1].toLowerCase());
    } else if (m.path === 'Cargo.toml') {
      const mm = /^\s*name\s*=\s*"([^"]+)"/m.exec(m.text);
      if (mm?.[1]) names.add(mm[1].toLowerCase());
    }
  }
  return [...names].filter((n) => n.length >= 3).sort();
}

const DECLARATION = /\b(?:fork(?:ed)?\s+(?:of|from)|based\s+on|derived\s+from|upstream(?:\s+is|\s*:)?|originally\s+(?:from|by)|port\s+of)\s*:?\s*\[?`?([A-Za-z0-9@/._:-]{3,200})/gi;

/** Does `declarer` say, in its README or package metadata, that it comes from one of `names`? Returns the file path. */
export function declaresUpstream(declarer: Fingerprints, names: string[]): string | null {
  if (!names.length) return null;
  const matches = (s: string): boolean => {
    const v = s.toLowerCase().replace(/\.git$/, '').replace(/[`\])]+$/, '');
    return names.some((n) => v === n || v.endsWith('/' + n) || v.endsWith(':' + n));
  };
  for (const m of [...declarer.manifests].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (/(^|\/)package\.json$/.test(m.path)) {
      try {
        const j = JSON.parse(m.text) as Record<string, unknown>;
        for (const key of ['forkedFrom', 'upstream']) if (typeof j[key] === 'string' && matches(j[key] as string)) return m.path;
      } catch {
        /* ignored */
      }
    }
    if (/^readme/i.test(m.path)) {
      DECLARATION.lastIndex = 0;
      let mm: RegExpExecArray | null;
      while ((mm = DECLARATION.exec(m.text))) if (mm[1] && matches(mm[1])) return m.path;
    }
  }
  return null;
}

/**
 * First appearance of matched material in one history: the commit time of the
 * oldest version of the file that already holds at least half of the
 * fragment's fingerprints (binary search over the path's versions, assuming
 * material once added stays). Null when the path has no recorded versions.
 */
export class MaterialDater {
  private readonly cache = new Map<string, Set<number>>();
  constructor(
    private readonly reader: BlobReader,
    private readonly hist: History,
    private readonly k: number,
    private readonly w: number,
    private readonly maxFileBytes: number,
    /** fingerprints already computed for the pinned blobs, reused instead of tokenising again */
    known: Fingerprints,
  ) {
    for (const f of known.files) this.cache.set(f.blobId, new Set(f.hashes));
  }

  private async hashesOf(v: PathVersion, path: string, language: string | null): Promise<Set<number>> {
    let s = this.cache.get(v.blobId);
    if (s) return s;
    const b = await this.reader.readBlob(v.blobId, this.maxFileBytes);
    s = new Set<number>();
    if (b) {
      const r = await fingerprintFile({ path, blobId: v.blobId, language, isTest: false, text: b.toString('utf8') }, this.k, this.w);
      for (const h of r.fp.hashes) s.add(h);
    }
    this.cache.set(v.blobId, s);
    return s;
  }

  async firstAppearance(path: string, language: string | null, hashes: number[]): Promise<PathVersion | null> {
    const versions = this.hist.pathVersions[path];
    if (!versions || versions.length === 0) return null;
    const need = Math.max(1, Math.ceil(hashes.length / 2));
    const holds = async (v: PathVersion): Promise<boolean> => {
      const s = await this.hashesOf(v, path, language);
      let n = 0;
      for (const h of hashes) if (s.has(h)) n++;
      return n >= need;
    };
    let lo = 0;
    let hi = versions.length - 1;
    if (!(await holds(versions[hi]!))) return versions[hi]!;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (await holds(versions[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return versions[lo]!;
  }
}
