// The engine's per-analysis fixed cost inside a long-lived process (as the
// analysis-pipeline runs it): one fingerprint pool for the process, grammars
// and the common-fingerprint corpus loaded once, then small pairs analysed one
// after another. Compared with a fresh pool per analysis (the CLI's way).
//
//   node -r ./scripts/swc-register.cjs bench/history/fixed-cost.ts [--runs 20]
//
// Appends nothing; prints a table, and writes bench/history/fixed-cost.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, DEFAULT_K, DEFAULT_WINDOW, FingerprintPool } from '@lineage/engine';
import { SCENARIOS } from '../../test/fixtures/scenarios';

const i = process.argv.indexOf('--runs');
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 20;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'lineage-fixed-cost-'));
  const rows: string[] = [];
  try {
    for (const name of ['tiny', 'fork-declared']) {
      const p = await SCENARIOS.find((s) => s.name === name)!.build(root);
      const time = async (pool: FingerprintPool | undefined): Promise<number> => {
        const t0 = performance.now();
        await analyze({ origin: p.origin, target: p.target, pool, forceWorkers: !pool });
        return performance.now() - t0;
      };
      // A warm process: one pool (2 workers) for every run; the first run pays for the grammars and is reported apart.
      const pool = new FingerprintPool(2, DEFAULT_K, DEFAULT_WINDOW);
      const first = await time(pool);
      const warm: number[] = [];
      for (let r = 0; r < RUNS; r++) warm.push(await time(pool));
      await pool.close();
      // A fresh pool of 2 workers per analysis, as a process that starts them each time would.
      const cold: number[] = [];
      for (let r = 0; r < Math.min(RUNS, 10); r++) cold.push(await time(undefined));
      rows.push(
        `| ${name} | ${first.toFixed(0)} ms | ${median(warm).toFixed(1)} ms (min ${Math.min(...warm).toFixed(1)}) | ${median(cold).toFixed(0)} ms |`,
      );
      process.stderr.write(`${name}: first ${first.toFixed(0)} warm ${median(warm).toFixed(1)} cold ${median(cold).toFixed(0)}\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const text = [
    '# Per-analysis fixed cost in a long-lived process',
    '',
    `Command: \`node -r ./scripts/swc-register.cjs bench/history/fixed-cost.ts --runs ${RUNS}\` (after \`make build\`). ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end; ${new Date().toISOString()}.`,
    '',
    'The pairs are the fixtures `tiny` (a few files a side) and `fork-declared` (a fork with shared history, about 30 files a side): what is measured is the cost every analysis pays whatever its size.',
    '',
    '| pair | first analysis in the process (grammars load) | every later one: median of the runs | fresh pool of 2 workers per analysis: median |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeFileSync(join(__dirname, 'fixed-cost.md'), text);
  process.stdout.write(text);
}

void main();
