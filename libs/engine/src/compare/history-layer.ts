import { BlobReader } from '../git/catfile';
import { fingerprintFile } from '../fingerprint-file';
import type { Fingerprints, History, PathVersion } from '../types';

export interface FirstAppearance {
  version: PathVersion;
  /** the version is in a commit both histories hold: the material was inherited, not made on this side */
  shared: boolean;
}

/**
 * First appearance of matched material in one history: the commit time of the
 * oldest version of the file that already holds at least half of the
 * fragment's fingerprints (binary search over the path's versions, assuming
 * material once added stays). When the newest version inside shared commits
 * already holds it, that is the answer and it is marked shared: no search
 * among this side's own versions is needed. Null when the path has no versions.
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
    /** whether a commit of this history is also in the other one */
    private readonly isShared: (commit: string) => boolean = () => false,
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

  async firstAppearance(path: string, language: string | null, hashes: number[]): Promise<FirstAppearance | null> {
    const versions = this.hist.pathVersions[path];
    if (!versions || versions.length === 0) return null;
    const need = Math.max(1, Math.ceil(hashes.length / 2));
    const holds = async (v: PathVersion): Promise<boolean> => {
      const s = await this.hashesOf(v, path, language);
      let n = 0;
      for (const h of hashes) if (s.has(h)) n++;
      return n >= need;
    };
    let lastShared = -1;
    for (let i = versions.length - 1; i >= 0; i--) {
      if (this.isShared(versions[i]!.commit)) {
        lastShared = i;
        break;
      }
    }
    if (lastShared >= 0 && (await holds(versions[lastShared]!))) return { version: versions[lastShared]!, shared: true };
    let lo = lastShared + 1;
    let hi = versions.length - 1;
    if (lo > hi || !(await holds(versions[hi]!))) return { version: versions[versions.length - 1]!, shared: false };
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (await holds(versions[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return { version: versions[lo]!, shared: false };
  }
}
