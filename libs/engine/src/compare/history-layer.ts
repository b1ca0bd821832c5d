import { BlobReader } from '../git/catfile';
import type { FingerprintPool } from '../workers/pool';
import type { FingerprintCache } from '../fingerprint-cache';
import { sortedIncludes } from '../util/sorted';
import type { Fingerprints, History, PathVersion } from '../types';

/**
 * A version's fingerprints, sorted, for membership tests by binary search: 8 bytes a hash, where a
 * Set of 53-bit numbers holds each as a boxed number in a hash table. Dating keeps every version it
 * has read until it ends (47 on redis x valkey, mostly versions of its largest files); with Sets the
 * main thread's heap peaked at about 150 MB there, with these at about 104 MB.
 */
export class HashSet {
  readonly sorted: Float64Array;
  constructor(hashes: ArrayLike<number>, alreadySorted = false) {
    this.sorted = alreadySorted && hashes instanceof Float64Array ? hashes : Float64Array.from(hashes).sort();
  }

  has(h: number): boolean {
    return sortedIncludes(this.sorted, h);
  }
}

export interface FirstAppearance {
  version: PathVersion;
  /** the version is in a commit both histories hold: the material was inherited, not made on this side */
  shared: boolean;
  /** the file it was found in, when not the dated file itself (followed out of the commit that made that file) */
  path?: string;
}

/**
 * Fingerprints of blob versions, shared by both sides' daters: the newest
 * shared version of a path is usually the same blob on both sides, and each
 * is tokenised once. Old versions are fingerprinted in the worker pool (never
 * on the calling thread when the pool has workers); requests for the same blob
 * made at once share one computation. Keyed by language and blob id, as the
 * fingerprints depend on both.
 */
export class DatingCache {
  private readonly sets = new Map<string, HashSet | Promise<HashSet>>();
  /** Pinned blobs' fingerprint lists, made into sets only when a dating reads them (a few files, not every file of both sides). */
  private readonly known = new Map<string, readonly number[]>();
  constructor(
    private readonly pool: FingerprintPool,
    private readonly maxFileBytes: number,
    /** a process's cache across analyses (fingerprint-cache.ts), with the k and window the versions are fingerprinted with */
    private readonly shared?: { cache: FingerprintCache; k: number; window: number },
  ) {}

  /** Fingerprints already computed for the pinned blobs, reused instead of tokenising again. */
  seed(known: Fingerprints): void {
    for (const f of known.files) {
      const key = `${f.language}\0${f.blobId}`;
      if (!this.known.has(key)) this.known.set(key, f.hashes);
    }
  }

  get(reader: BlobReader, blobId: string, path: string, language: string | null): HashSet | Promise<HashSet> {
    const key = `${language ?? 'generic'}\0${blobId}`;
    const hit = this.sets.get(key);
    if (hit) return hit;
    const seeded = this.known.get(key);
    if (seeded) {
      const s = new HashSet(seeded);
      this.sets.set(key, s);
      return s;
    }
    const sharedKey = this.shared && `${this.shared.k}\0${this.shared.window}\0${key}`;
    const known = sharedKey ? this.shared!.cache.getVersion(sharedKey) : undefined;
    if (known) {
      const s = new HashSet(known, true);
      this.sets.set(key, s);
      return s;
    }
    const job = (async () => {
      const b = await reader.readBlob(blobId, this.maxFileBytes);
      if (!b) return new HashSet([]);
      const [r] = await this.pool.run([{ path, blobId, language, isTest: false, text: b.toString('utf8'), fingerprintsOnly: true }]);
      const s = new HashSet(r!.fp.hashes);
      if (sharedKey) this.shared!.cache.setVersion(sharedKey, s.sorted);
      return s;
    })();
    this.sets.set(key, job);
    job.then(
      (s) => this.sets.set(key, s),
      () => this.sets.delete(key),
    );
    return job;
  }
}

/** Files changed by the commit that made a file, tried as the source of its material. */
const MAX_SOURCES_TRIED = 8;

/**
 * First appearance of matched material in one history: the commit time of the
 * oldest version of the file that already holds at least half of the
 * fragment's fingerprints (binary search over the path's versions, assuming
 * material once added stays). When the newest version inside shared commits
 * already holds it, that is the answer and it is marked shared: no search
 * among this side's own versions is needed. Null when the path has no versions, or none holds the material.
 */
export class MaterialDater {
  constructor(
    private readonly reader: BlobReader,
    private readonly hist: History,
    private readonly cache: DatingCache,
    /** whether a commit of this history is also in the other one */
    private readonly isShared: (commit: string) => boolean = () => false,
  ) {}

  /**
   * Per commit, the code paths it changed (not those it made) with their blobs before it, from the history walk's
   * own path versions: where material found in a file's first version may have come from in the same commit (a move
   * or a split). Built on first use.
   */
  private changed: Map<string, { path: string; blobId: string }[]> | null = null;

  private changedBy(commit: string): { path: string; blobId: string }[] {
    if (!this.changed) {
      this.changed = new Map();
      for (const path of Object.keys(this.hist.pathVersions).sort()) {
        const v = this.hist.pathVersions[path]!;
        for (let i = 1; i < v.length; i++) {
          const list = this.changed.get(v[i]!.commit) ?? [];
          list.push({ path, blobId: v[i - 1]!.blobId });
          this.changed.set(v[i]!.commit, list);
        }
      }
    }
    return this.changed.get(commit) ?? [];
  }

  private lastShared(versions: PathVersion[]): number {
    for (let i = versions.length - 1; i >= 0; i--) if (this.isShared(versions[i]!.commit)) return i;
    return -1;
  }

  async firstAppearance(path: string, language: string | null, hashes: number[]): Promise<FirstAppearance | null> {
    const found = await this.search(path, this.hist.pathVersions[path] ?? [], language, hashes);
    if (!found || found.shared) return found;
    // Found in the file's first version: the commit that made the file may have moved the material out of another
    // file it changed (memcached split jenkins_hash.c out of hash.c in 2014; the hash code is from 2009). Follow it
    // there, once, through that file's versions before the commit.
    if (found.version !== this.hist.pathVersions[path]![0]) return found;
    const made = found.version;
    for (const from of this.changedBy(made.commit).slice(0, MAX_SOURCES_TRIED)) {
      const earlier = this.hist.pathVersions[from.path]!.filter((v) => v.time <= made.time && v.commit !== made.commit);
      if (!earlier.length || !(await this.holds(from.blobId, from.path, language, hashes))) continue;
      const there = await this.search(from.path, earlier, language, hashes);
      if (there && there.version.time <= made.time) return { ...there, path: there.path ?? from.path };
    }
    return found;
  }

  private async holds(blobId: string, path: string, language: string | null, hashes: number[]): Promise<boolean> {
    const s = await this.cache.get(this.reader, blobId, path, language);
    let n = 0;
    for (const h of hashes) if (s.has(h)) n++;
    return n >= Math.max(1, Math.ceil(hashes.length / 2));
  }

  private async search(path: string, versions: PathVersion[], language: string | null, hashes: number[]): Promise<FirstAppearance | null> {
    if (versions.length === 0) return null;
    const holds = (v: PathVersion): Promise<boolean> => this.holds(v.blobId, v.path ?? path, language, hashes);
    // A version from before the file was moved names the path it was at.
    const at = (v: PathVersion, shared: boolean): FirstAppearance =>
      v.path ? { version: v, shared, path: v.path } : { version: v, shared };
    const lastShared = this.lastShared(versions);
    if (lastShared >= 0 && (await holds(versions[lastShared]!))) return at(versions[lastShared]!, true);
    let lo = lastShared + 1;
    let hi = versions.length - 1;
    // No recorded version holds it: the walk does not record the blobs merges make (LuaJIT's v2.1 files come from
    // "Merge branch 'master' into v2.1"), so the newest version here can be an older, shared one. Its date would
    // credit this side with material it inherited; the material is undated instead.
    if (lo > hi || !(await holds(versions[hi]!))) return null;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (await holds(versions[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return at(versions[lo]!, false);
  }
}
