import { isCodeClass } from '../classify';
import type { EvidenceItem, Inventory } from '../types';
import { COMMON_BASENAMES, COMMON_DIRS } from './common';
import { cmp, dec, sharedKeys, strengthOf } from './format';

export interface StructureResult {
  score: number;
  items: EvidenceItem[];
}

function stem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function dirs(files: string[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    const parts = f.toLowerCase().split('/');
    for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
  }
  return out;
}

/**
 * Directory and module topology and file naming: shared distinctive file stems
 * (a name common in ordinary projects weighs nothing) and shared directory
 * paths that are not conventional.
 */
export function compareStructure(o: Inventory, t: Inventory): StructureResult {
  const keep = (inv: Inventory): string[] => inv.files.filter((f) => isCodeClass(f.class)).map((f) => f.path);
  const oFiles = keep(o);
  const tFiles = keep(t);
  const rareStems = (files: string[]): Map<string, string> => {
    const m = new Map<string, string>();
    for (const f of files) {
      const s = stem(f);
      if (s.length >= 3 && !COMMON_BASENAMES.has(s) && !m.has(s)) m.set(s, f);
    }
    return m;
  };
  const oStems = rareStems(oFiles);
  const tStems = rareStems(tFiles);
  const items: EvidenceItem[] = [];
  let shared = 0;
  for (const [s, op, tp] of sharedKeys(oStems, tStems)) {
    shared++;
    const samePath = op.toLowerCase() === tp.toLowerCase();
    items.push({
      id: '',
      layer: 'STRUCTURE',
      kind: samePath ? 'SAME_FILE_PATH' : 'SAME_FILE_NAME',
      strength: samePath ? 'MODERATE' : 'WEAK',
      score: dec(samePath ? 1 : 0.5),
      origin: { path: op, startLine: 0, endLine: 0, blobId: '' },
      target: { path: tp, startLine: 0, endLine: 0, blobId: '' },
      detail: `distinctive file name "${s}" in both repositories`,
    });
  }
  const oDirs = [...dirs(oFiles)].filter((d) => !COMMON_DIRS.has(d));
  const tDirs = dirs(tFiles);
  let sharedDirs = 0;
  for (const d of oDirs.sort(cmp)) {
    if (!tDirs.has(d) || COMMON_DIRS.has(d)) continue;
    sharedDirs++;
    items.push({
      id: '',
      layer: 'STRUCTURE',
      kind: 'SAME_DIRECTORY',
      strength: 'WEAK',
      score: dec(0.5),
      origin: null,
      target: null,
      detail: `directory "${d}" in both repositories`,
    });
  }
  const tRareDirs = [...tDirs].filter((d) => !COMMON_DIRS.has(d)).length;
  const stemScore = Math.min(oStems.size, tStems.size) ? shared / Math.min(oStems.size, tStems.size) : 0;
  const dirScore = Math.min(oDirs.length, tRareDirs) ? sharedDirs / Math.min(oDirs.length, tRareDirs) : 0;
  const score = 0.7 * stemScore + 0.3 * dirScore;
  for (const it of items) it.strength = it.kind === 'SAME_FILE_PATH' && score >= 0.5 ? 'STRONG' : it.strength;
  void strengthOf;
  return { score, items };
}
