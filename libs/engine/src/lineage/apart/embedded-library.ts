// A library both sides embed: the matched files' heads keep the notice of a holder who is neither side's own
// (third-party.ts reads it). Its code is the library's, so it says nothing about either side copying the other.
import type { Side } from '../../types';
import { thirdPartyCode } from '../third-party';
import { none, type ApartSide, type Finding } from './context';

const pct = (x: number): string => `${Math.round(x * 100)}%`;

export function embeddedLibrary(sides: Record<Side, ApartSide>): Finding & { holder: string | null } {
  const o = sides.origin.embedded;
  const t = sides.target.embedded;
  // Two snapshots that hold a third holder's work, whatever its share of them, are two uploads of that work.
  const uploads = sides.origin.snapshot && sides.target.snapshot;
  const third = o && t ? thirdPartyCode({ origin: o, target: t }, uploads) : null;
  if (!third) return { ...none(), holder: null };
  const detail =
    (third.notice === 'dedication'
      ? `the matched code is dedicated to the public domain on both sides: the origin's ${third.origin.path}:${third.origin.line} and ` +
        `the target's ${third.target.path}:${third.target.line} say so, and neither side's licence dedicates its own code so; its files hold`
      : third.notice === 'pointer'
        ? `the matched code points at the copyright notice in ${third.holder} on both sides: the origin's ${third.origin.path}:` +
          `${third.origin.line} and the target's ${third.target.path}:${third.target.line} say so; its files hold`
        : `the matched code is "${third.holder}"'s on both sides: the origin's ${third.origin.path}:${third.origin.line} and the target's ` +
          `${third.target.path}:${third.target.line} keep that copyright notice, and its holder is neither side's author nor named in ` +
          `either side's licence; its files hold`) +
    ` ${pct(third.matchedShare.origin)} of the origin's matched material and ${pct(third.codeShare.origin)} ` +
    `of its code, ${pct(third.matchedShare.target)} and ${pct(third.codeShare.target)} of the target's: ` +
    (uploads && !third.embedded ? 'two uploads of that work, each a snapshot of a few commits' : 'a library both embed');
  return { evidence: [], chronology: [{ kind: 'THIRD_PARTY_CODE', side: 'both', time: null, commit: null, detail }], holder: third.holder };
}
