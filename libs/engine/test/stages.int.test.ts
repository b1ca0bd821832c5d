// The one runner of the engine's stages (src/stages.ts), as analyze() and the pipeline use it: stages in their order,
// a stage finished before read only when a later one needs it, the hooks around each, one budget for all of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  analyze,
  Deadline,
  ENGINE_STAGE_NAMES,
  FingerprintPool,
  git,
  isEngineError,
  resolveLimits,
  runStages,
  DEFAULT_K,
  DEFAULT_WINDOW,
  type AnalysisContext,
  type EngineStageName,
  type StageOutputs,
} from '@lineage/engine';
import { SCENARIOS, type BuiltPair } from '../../../test/fixtures/scenarios';

jest.setTimeout(120_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-stages-'));
let pair: BuiltPair;
let pool: FingerprintPool;
beforeAll(async () => {
  pair = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(base);
  pool = new FingerprintPool(1, DEFAULT_K, DEFAULT_WINDOW);
});
afterAll(async () => {
  await pool.close();
  rmSync(base, { recursive: true, force: true });
});

/** A context as the pipeline builds one: pinned commits, one deadline, one reader per side, a pool it keeps. */
function context(budgetMs = 600_000): AnalysisContext & { close(): void } {
  const limits = resolveLimits({ timeBudgetMs: budgetMs });
  const readers = { origin: new git.BlobReader(pair.origin.dir), target: new git.BlobReader(pair.target.dir) };
  return {
    repos: { origin: pair.origin, target: pair.target },
    commits: { origin: pair.origin.commit, target: pair.target.commit },
    limits,
    deadline: new Deadline(limits.timeBudgetMs),
    readers,
    pool: () => pool,
    close: () => {
      readers.origin.close();
      readers.target.close();
    },
  };
}

test('one stage at a time, in order, each inside the hook; the manifest is the bytes analyze() writes', async () => {
  const ctx = context();
  const ran: EngineStageName[] = [];
  let running = 0;
  let most = 0;
  try {
    const output = await runStages(ctx, {
      around: async (name, run) => {
        ran.push(name);
        most = Math.max(most, ++running);
        try {
          return await run();
        } finally {
          running--;
        }
      },
    });
    expect(ran).toEqual([...ENGINE_STAGE_NAMES]);
    // Not overlapping: each stage had finished before the next one started.
    expect(most).toBe(1);
    const m = await output('manifest');
    const direct = await analyze({ origin: pair.origin, target: pair.target, pool });
    expect(m.hash).toBe(direct.hash);
    expect(m.bytes.equals(direct.bytes)).toBe(true);
  } finally {
    ctx.close();
  }
});

test('resumed: stages done before are skipped, and only those a later stage needs are read back', async () => {
  const first = context();
  let outputs: Partial<StageOutputs> = {};
  try {
    const output = await runStages(first);
    outputs = Object.fromEntries(await Promise.all(ENGINE_STAGE_NAMES.map(async (n) => [n, await output(n)]))) as Partial<StageOutputs>;
  } finally {
    first.close();
  }
  // As the pipeline's store keeps them: plain JSON.
  const persisted = JSON.parse(JSON.stringify({ ...outputs, manifest: undefined })) as Record<string, unknown>;
  const ctx = context();
  const loads: string[] = [];
  const ran: string[] = [];
  const done = new Set<EngineStageName>(['inventory', 'fingerprint', 'history', 'compare']);
  try {
    const output = await runStages(ctx, {
      done: (n) => done.has(n),
      load: async (n) => {
        loads.push(n);
        return persisted[n] as never;
      },
      around: (name, run) => {
        ran.push(name);
        return run();
      },
    });
    expect(ran).toEqual(['decide', 'manifest']);
    // decide reads compare; manifest reads inventory, history, compare (once) and decide (just run): never the fingerprints.
    expect(loads.sort()).toEqual(['compare', 'history', 'inventory']);
    expect((await output('manifest')).bytes.equals(outputs.manifest!.bytes)).toBe(true);
  } finally {
    ctx.close();
  }
});

test('the budget is one for all stages: spent at a boundary, the next stage fails with timeBudgetMs inside its hook', async () => {
  const ctx = context(60_000);
  const ran: string[] = [];
  let fake = Date.now();
  const now = jest.spyOn(Date, 'now').mockImplementation(() => fake);
  try {
    const err = await runStages(ctx, {
      around: async (name, run) => {
        ran.push(name);
        const out = await run();
        // The inventory and the fingerprints took the whole minute between them.
        if (name === 'fingerprint') fake += 61_000;
        return out;
      },
    }).catch((e: unknown) => e);
    expect(isEngineError(err) && err.limit).toBe('timeBudgetMs');
    // history started (its hook ran, so the pipeline records the budget spent against it) and did not run on.
    expect(ran).toEqual(['inventory', 'fingerprint', 'history']);
  } finally {
    now.mockRestore();
    ctx.close();
  }
});

test('a cancelled analysis stops at the next boundary', async () => {
  const ac = new AbortController();
  const ctx = { ...context(), signal: ac.signal };
  const ran: string[] = [];
  try {
    const err = await runStages(ctx, {
      around: async (name, run) => {
        ran.push(name);
        const out = await run();
        if (name === 'inventory') ac.abort();
        return out;
      },
    }).catch((e: unknown) => e);
    expect(isEngineError(err) && err.code).toBe('CANCELLED');
    expect(ran).toEqual(['inventory', 'fingerprint']);
  } finally {
    ctx.close();
  }
});
