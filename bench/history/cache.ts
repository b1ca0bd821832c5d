// The second analysis of a pair that shares one side with an earlier one, with and without the fingerprint cache a
// service keeps across analyses (libs/engine/src/fingerprint-cache.ts). Each measurement runs in a process of its own:
//   cold: the second pair alone (what every analysis costs without the cache);
//   warm: the first pair, then the second with the cache the first one filled (what a service's second analysis costs).
// Reported: CPU (user + system, every thread of the process) and wall time of the second analysis only, and whether
// its manifest is the same bytes both ways. Cold and warm alternate, RUNS times each; medians.
//
//   node -r ./scripts/swc-register.cjs bench/history/cache.ts [--runs 3]
//
// Repositories: as the other bench/history scripts (repos.ts).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { repoDir } from './repos';

const ROOT = resolve(__dirname, '../..');

interface Pair {
  o: string;
  oc: string;
  t: string;
  tc: string;
}
/** Pairs of pairs that share a side, from bench/accuracy (doom-crispy-chain, crispy-from-chocolate, ravi-from-lua, luau-from-lua). */
const CASES: { name: string; first: Pair; second: Pair }[] = [
  {
    name: 'crispy-doom: from chocolate-doom, then from DOOM',
    first: {
      o: 'chocolate-doom/chocolate-doom',
      oc: '941dd35fe01cb505def9a66c3038cde13b6a51f3',
      t: 'fabiangreffrath/crispy-doom',
      tc: 'f3127d7227e13f9c86119ba710bd07702dcf23bc',
    },
    second: {
      o: 'id-Software/DOOM',
      oc: 'a77dfb96cb91780ca334d0d4cfd86957558007e0',
      t: 'fabiangreffrath/crispy-doom',
      tc: 'f3127d7227e13f9c86119ba710bd07702dcf23bc',
    },
  },
  {
    name: 'lua: against ravi, then against luau',
    first: {
      o: 'lua/lua',
      oc: '53b41d0cddd80bf33fdc631bdd32e3ba53842b89',
      t: 'dibyendumajumdar/ravi',
      tc: '919bc7e9ebe18c0b9fe7e56c69005b46745b0548',
    },
    second: {
      o: 'lua/lua',
      oc: '53b41d0cddd80bf33fdc631bdd32e3ba53842b89',
      t: 'luau-lang/luau',
      tc: '367f9d83cc29804a6d5938ec85b6116d34d8743b',
    },
  },
];

interface Measured {
  cpuS: number;
  wallS: number;
  hash: string;
  hits: number;
}

/** One process: optionally the first pair, then the second; prints the second's figures as JSON. */
function child(mode: 'cold' | 'warm', c: (typeof CASES)[number]): Measured {
  const script = `
    const { analyze, FingerprintCache } = require(${JSON.stringify(resolve(ROOT, 'libs/engine/dist/index.js'))});
    const [mode, o1, oc1, t1, tc1, o2, oc2, t2, tc2] = process.argv.slice(1);
    (async () => {
      const cache = new FingerprintCache(512 * 1024 ** 2);
      if (mode === 'warm') await analyze({ origin: { dir: o1, commit: oc1 }, target: { dir: t1, commit: tc1 }, fingerprintCache: cache });
      const hits = cache.hits;
      const cpu = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const r = await analyze({ origin: { dir: o2, commit: oc2 }, target: { dir: t2, commit: tc2 }, ...(mode === 'warm' ? { fingerprintCache: cache } : {}) });
      const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
      const d = process.cpuUsage(cpu);
      process.stdout.write(JSON.stringify({ cpuS: (d.user + d.system) / 1e6, wallS, hash: r.hash, hits: cache.hits - hits }));
    })();
  `;
  const dir = (slug: string): string => {
    const d = repoDir(slug);
    if (!d) throw new Error(`${slug}: no repository here (see repos.ts)`);
    return d;
  };
  const args = [c.first, c.second].flatMap((p) => [dir(p.o), p.oc, dir(p.t), p.tc]);
  const out = execFileSync(process.execPath, ['-e', script, mode, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as Measured;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function main(): void {
  const i = process.argv.indexOf('--runs');
  const runs = i > 0 ? Number(process.argv[i + 1]) : 3;
  console.log(
    '| second analysis | CPU s, cold | CPU s, warm | warm ÷ cold | wall s, cold | wall s, warm | files from the cache | same manifest |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|---|');
  for (const c of CASES) {
    const cold: Measured[] = [];
    const warm: Measured[] = [];
    for (let r = 0; r < runs; r++) {
      cold.push(child('cold', c));
      warm.push(child('warm', c));
    }
    const same = [...cold, ...warm].every((m) => m.hash === cold[0]!.hash);
    const [cc, wc] = [median(cold.map((m) => m.cpuS)), median(warm.map((m) => m.cpuS))];
    console.log(
      `| ${c.name} | ${cc.toFixed(2)} | ${wc.toFixed(2)} | ${(wc / cc).toFixed(2)} | ${median(cold.map((m) => m.wallS)).toFixed(2)} | ${median(warm.map((m) => m.wallS)).toFixed(2)} | ${median(warm.map((m) => m.hits))} | ${same ? 'yes' : 'NO'} |`,
    );
  }
}

main();
