import type { EvidenceItem, Fingerprints } from '../types';
import { COMMON_DEPENDENCIES } from './common';
import { dec, sharedKeys } from './format';

interface Dep {
  name: string;
  spec: string;
  path: string;
}

/** Dependencies declared in manifest files (package.json, requirements*.txt, go.mod, Cargo.toml, pyproject.toml). */
export function parseDependencies(fp: Fingerprints): Dep[] {
  const out: Dep[] = [];
  for (const m of fp.manifests) {
    const base = m.path.slice(m.path.lastIndexOf('/') + 1).toLowerCase();
    if (base === 'package.json' || base === 'composer.json') {
      try {
        const j = JSON.parse(m.text) as Record<string, unknown>;
        for (const sec of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'require', 'require-dev']) {
          const d = j[sec];
          if (d && typeof d === 'object')
            for (const [k, v] of Object.entries(d as Record<string, unknown>)) out.push({ name: k, spec: String(v), path: m.path });
        }
      } catch {
        /* not JSON: ignored */
      }
    } else if (base.startsWith('requirements')) {
      for (const line of m.text.split('\n')) {
        const mm = /^\s*([A-Za-z0-9_.-]+)\s*(?:\[[^\]]*\])?\s*([=<>!~][^#;\s]*)?/.exec(line);
        if (mm?.[1] && !line.trim().startsWith('#') && !line.trim().startsWith('-'))
          out.push({ name: mm[1].toLowerCase(), spec: mm[2] ?? '', path: m.path });
      }
    } else if (base === 'go.mod') {
      for (const mm of m.text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+\/[^\s]+)\s+(v[^\s]+)/gm))
        out.push({ name: mm[1]!, spec: mm[2]!, path: m.path });
    } else if (base === 'cargo.toml' || base === 'pyproject.toml') {
      let inDeps = false;
      for (const line of m.text.split('\n')) {
        const sec = /^\s*\[([^\]]+)\]/.exec(line);
        if (sec) {
          inDeps = /dependencies/.test(sec[1]!);
          continue;
        }
        const kv = /^\s*([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
        if (inDeps && kv) out.push({ name: kv[1]!, spec: kv[2]!.trim(), path: m.path });
      }
    }
  }
  return out;
}

/** Same unusual dependency sets and pins: common packages weigh nothing. */
export function compareDependencies(o: Fingerprints, t: Fingerprints): { score: number; items: EvidenceItem[] } {
  const rareMap = (deps: Dep[]): Map<string, Dep> => {
    const m = new Map<string, Dep>();
    for (const d of deps) if (!COMMON_DEPENDENCIES.has(d.name) && !d.name.startsWith('@types/') && !m.has(d.name)) m.set(d.name, d);
    return m;
  };
  const od = rareMap(parseDependencies(o));
  const td = rareMap(parseDependencies(t));
  const items: EvidenceItem[] = [];
  let shared = 0;
  for (const [name, a, b] of sharedKeys(od, td)) {
    const samePin = a.spec === b.spec && /\d/.test(a.spec);
    shared += samePin ? 1 : 0.5;
    items.push({
      id: '',
      layer: 'DEPENDENCY',
      kind: samePin ? 'SAME_DEPENDENCY_PIN' : 'SAME_DEPENDENCY',
      strength: samePin ? 'MODERATE' : 'WEAK',
      score: dec(samePin ? 1 : 0.5),
      origin: { path: a.path, startLine: 0, endLine: 0, blobId: '' },
      target: { path: b.path, startLine: 0, endLine: 0, blobId: '' },
      detail: `dependency ${name.slice(0, 100)}${samePin ? ' with the same version specification' : ''}`,
    });
  }
  const union = new Set([...od.keys(), ...td.keys()]).size;
  // Jaccard over unusual dependencies; a set of fewer than 3 shared names is not a "set".
  const score = union && shared >= 2 ? shared / union : 0;
  return { score, items };
}
