import type { EvidenceItem, Fingerprints, Inventory } from '../types';
import { dec, sharedKeys } from './format';

const GENERIC_TEST = /^(works?|should work|basic|simple|test\w{0,6}|it works|smoke|default|defaults|example|init|setup|teardown)$/i;

function distinctive(name: string): boolean {
  if (GENERIC_TEST.test(name)) return false;
  const words = name.split(/[\s_]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean);
  return name.length >= 14 && words.length >= 3;
}

/** Distinctive test names and identical fixture files present in both repositories. */
export function compareTests(oInv: Inventory, tInv: Inventory, o: Fingerprints, t: Fingerprints): { score: number; items: EvidenceItem[] } {
  const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const oNames = new Map<string, (typeof o.tests)[number]>();
  for (const it of o.tests) if (distinctive(it.text) && !oNames.has(norm(it.text))) oNames.set(norm(it.text), it);
  const tNames = new Map<string, (typeof t.tests)[number]>();
  for (const it of t.tests) if (distinctive(it.text) && !tNames.has(norm(it.text))) tNames.set(norm(it.text), it);
  const items: EvidenceItem[] = [];
  let shared = 0;
  for (const [, a, b] of sharedKeys(oNames, tNames)) {
    shared++;
    items.push({
      id: '',
      layer: 'TEST',
      kind: 'SAME_TEST_NAME',
      strength: 'MODERATE',
      score: dec(1),
      origin: { path: a.path, startLine: a.line, endLine: a.line, blobId: '' },
      target: { path: b.path, startLine: b.line, endLine: b.line, blobId: '' },
      detail: 'distinctive test name present in both repositories',
    });
  }
  // Identical fixture files (same blob) under test directories, non-trivial size.
  const fixtures = (inv: Inventory): Map<string, (typeof inv.files)[number]> => {
    const m = new Map<string, (typeof inv.files)[number]>();
    for (const f of inv.files)
      if (/(^|\/)(fixtures?|testdata|__fixtures__|test\/data)\//i.test(f.path) && f.size >= 64 && !m.has(f.blobId)) m.set(f.blobId, f);
    return m;
  };
  const oFix = fixtures(oInv);
  const tFix = fixtures(tInv);
  let sharedFix = 0;
  for (const [, a, b] of sharedKeys(oFix, tFix)) {
    sharedFix++;
    items.push({
      id: '',
      layer: 'TEST',
      kind: 'SAME_FIXTURE',
      strength: 'STRONG',
      score: dec(1),
      origin: { path: a.path, startLine: 1, endLine: a.lines, blobId: a.blobId },
      target: { path: b.path, startLine: 1, endLine: b.lines, blobId: b.blobId },
      detail: 'identical test fixture file',
    });
  }
  const denom = Math.min(oNames.size + oFix.size, tNames.size + tFix.size);
  return { score: denom ? Math.min(1, (shared + sharedFix) / denom) : 0, items };
}
