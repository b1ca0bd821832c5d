// The engine's stages and the one runner that sequences them. analyze() (the CLI and the library) and the
// pipeline (services/analysis-pipeline) run this code: the order of the stages is read here and nowhere else.
// The pipeline adds what only it has (persisting each output, leases, cancelling at a boundary) as hooks.
import { ENGINE_STAGE_NAMES, type EngineStageName } from '@lineage/vocabulary';
import { compare } from './compare';
import { decide } from './decide/index';
import { EngineError, inStage, type ErrorSide } from './errors';
import { fingerprint, type FingerprintMemo } from './fingerprint';
import type { FingerprintCache } from './fingerprint-cache';
import type { BlobReader } from './git/catfile';
import { histories } from './history';
import { inventory } from './inventory';
import type { Deadline } from './limits';
import { buildManifest } from './manifest';
import { DEFAULT_K, DEFAULT_WINDOW } from './winnow';
import type { FingerprintPool } from './workers/pool';
import type {
  Comparison,
  Decision,
  Fingerprints,
  Inventory,
  Limits,
  ManifestResult,
  PairHistory,
  ProgressFn,
  RepoRef,
  Side,
} from './types';

export type Sides<T> = { origin: T; target: T };

/** What each stage produces. All of it is plain JSON but the manifest's bytes (the pipeline stores them as base64). */
export interface StageOutputs {
  inventory: Sides<Inventory>;
  fingerprint: Sides<Fingerprints>;
  history: PairHistory;
  compare: Comparison;
  decide: Decision;
  manifest: ManifestResult;
}

/** One analysis: what every stage of it shares. */
export interface AnalysisContext {
  /** both repositories; `commits` holds the commits they are pinned at, resolved */
  repos: Sides<RepoRef>;
  commits: Sides<string>;
  /** resolved once for the analysis */
  limits: Limits;
  /** the analysis's time budget (what is left of it), one for all its stages */
  deadline: Deadline;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
  /** one cat-file process per side, shared by every stage (each git process started is a fork of this one) */
  readers?: Sides<BlobReader>;
  /** the pool that fingerprints (and, in compare, dates old versions), chosen once the inventories are known */
  pool(inventories: Sides<Inventory>): FingerprintPool;
  /** files earlier analyses in this process tokenised (a service's, kept across analyses): the same results, not recomputed */
  fingerprintCache?: FingerprintCache;
  /** close the pool once compare has dated the matched code: a pool the analysis started for itself */
  closePoolAfterDating?: boolean;
}

type Inputs<N extends readonly EngineStageName[]> = { [K in N[number]]: Promise<StageOutputs[K]> };

interface Stage<N extends EngineStageName, Needs extends readonly EngineStageName[]> {
  /** the earlier stages whose outputs this one reads */
  needs: Needs;
  /** inputs the stage takes before they are ready (it starts its own work beside them), when stages may overlap */
  early?: readonly Needs[number][];
  run(ctx: AnalysisContext, inputs: Inputs<Needs>): Promise<StageOutputs[N]>;
}

const stage = <N extends EngineStageName, const Needs extends readonly EngineStageName[]>(s: Stage<N, Needs>): Stage<N, Needs> => s;

const SIDES = ['origin', 'target'] as const;
const repo = (ctx: AnalysisContext, s: Side): RepoRef => ({ ...ctx.repos[s], commit: ctx.commits[s] });
/** The options of a stage that works on both repositories together. */
const pairOptions = (ctx: AnalysisContext) => ({
  limits: ctx.limits,
  deadline: ctx.deadline,
  signal: ctx.signal,
  onProgress: ctx.onProgress,
});
/** ...and of one side's part of a stage. */
const sideOptions = (ctx: AnalysisContext, s: Side) => ({ ...pairOptions(ctx), side: s, reader: ctx.readers?.[s] });
/** Runs a stage's work for both sides at once; a failure names the stage and the side. */
async function bothSides<T>(name: EngineStageName, fn: (s: Side) => Promise<T>): Promise<Sides<T>> {
  const [origin, target] = await Promise.all(SIDES.map((s) => inStage(name, s as ErrorSide, () => fn(s))));
  return { origin: origin!, target: target! };
}

/** The engine's stages, by name; ENGINE_STAGE_NAMES (@lineage/vocabulary) is their order. */
export const STAGES = {
  inventory: stage({
    needs: [],
    run: (ctx) => bothSides('inventory', (s) => inventory(repo(ctx, s), sideOptions(ctx, s))),
  }),

  fingerprint: stage({
    needs: ['inventory'],
    async run(ctx, input) {
      const inv = await input.inventory;
      const pool = ctx.pool(inv);
      // A blob both sides hold (a fork's unchanged files) is tokenised once.
      const memo: FingerprintMemo = new Map();
      return bothSides('fingerprint', (s) =>
        fingerprint(repo(ctx, s), inv[s], { ...sideOptions(ctx, s), pool, memo, cache: ctx.fingerprintCache }),
      );
    },
  }),

  /** Both histories, and how they relate (fork points, ancestry, authors). */
  history: stage({
    needs: ['inventory'],
    // git log runs in its own processes while this one lists, classifies and fingerprints: the walks start with the
    // inventory and keep the code paths it names once it is known.
    early: ['inventory'],
    run: (ctx, input) =>
      inStage('history', null, () =>
        histories(
          repo(ctx, 'origin'),
          repo(ctx, 'target'),
          {
            origin: { commit: ctx.commits.origin, inventory: input.inventory.then((i) => i.origin) },
            target: { commit: ctx.commits.target, inventory: input.inventory.then((i) => i.target) },
          },
          { ...pairOptions(ctx), readers: ctx.readers },
        ),
      ),
  }),

  compare: stage({
    needs: ['inventory', 'fingerprint', 'history'],
    async run(ctx, input) {
      const [inv, fp, hist] = await Promise.all([input.inventory, input.fingerprint, input.history]);
      return inStage('compare', null, () =>
        compare(
          { repo: repo(ctx, 'origin'), inventory: inv.origin, fingerprints: fp.origin, history: hist.origin },
          { repo: repo(ctx, 'target'), inventory: inv.target, fingerprints: fp.target, history: hist.target },
          {
            ...pairOptions(ctx),
            readers: ctx.readers,
            topology: hist.topology,
            pool: ctx.pool(inv),
            closePoolAfterDating: ctx.closePoolAfterDating,
            fingerprintCache: ctx.fingerprintCache,
          },
        ),
      );
    },
  }),

  decide: stage({
    needs: ['compare'],
    async run(ctx, input) {
      const comparison = await input.compare;
      return inStage('decide', null, async () => {
        const decision = decide(comparison);
        ctx.onProgress?.({ stage: 'decide', done: 1, total: 1, unit: 'items' });
        return decision;
      });
    },
  }),

  manifest: stage({
    needs: ['inventory', 'history', 'compare', 'decide'],
    async run(ctx, input) {
      const [inventories, history, comparison, decision] = await Promise.all([input.inventory, input.history, input.compare, input.decide]);
      return inStage('manifest', null, async () => {
        const m = buildManifest({
          pair: ctx.repos,
          commits: { origin: inventories.origin.commit, target: inventories.target.commit },
          limits: ctx.limits,
          parameters: { k: DEFAULT_K, window: DEFAULT_WINDOW },
          inventories,
          history,
          comparison,
          decision,
        });
        ctx.onProgress?.({ stage: 'manifest', done: 1, total: 1, unit: 'items' });
        return m;
      });
    },
  }),
} satisfies { [N in EngineStageName]: Stage<N, readonly EngineStageName[]> };

export interface StageHooks {
  /** Run a stage once its inputs are ready, beside the others still running (the CLI); otherwise one at a time. */
  overlap?: boolean;
  /** Whether an earlier run of this analysis finished the stage (the pipeline's store, on resume). */
  done?(name: EngineStageName): boolean;
  /** That finished stage's output, read only when a later stage needs it. */
  load?<N extends EngineStageName>(name: N): Promise<StageOutputs[N]>;
  /** Around each stage that runs: the pipeline's bookkeeping (its row, progress, retries, persisting the output). */
  around?<N extends EngineStageName>(name: N, run: () => Promise<StageOutputs[N]>): Promise<StageOutputs[N]>;
}

/** Every stage's output, by name: a stage finished in an earlier run is read when asked for. */
export type StageResults = <N extends EngineStageName>(name: N) => Promise<StageOutputs[N]>;

/**
 * Runs the stages in their order, each once the outputs it needs are there; between stages, a cancelled analysis
 * or a spent budget stops it. When stages overlap, a failure is reported as the first failing stage in that order.
 */
export async function runStages(ctx: AnalysisContext, hooks: StageHooks = {}): Promise<StageResults> {
  const started = new Map<EngineStageName, Promise<unknown>>();
  const loaded = new Map<EngineStageName, Promise<unknown>>();
  const output: StageResults = (name) => {
    let p = started.get(name) ?? loaded.get(name);
    if (!p) {
      if (!hooks.load) throw new Error(`stage ${name} has no output`);
      loaded.set(name, (p = hooks.load(name)));
    }
    return p as Promise<StageOutputs[typeof name]>;
  };
  const between = (): void => {
    if (ctx.signal?.aborted) throw new EngineError('CANCELLED', 'analysis cancelled');
    ctx.deadline.check();
  };
  const start = <N extends EngineStageName>(name: N): Promise<StageOutputs[N]> => {
    const s = STAGES[name] as unknown as Stage<N, readonly EngineStageName[]>;
    const inputs = Object.fromEntries(s.needs.map((n) => [n, output(n)])) as Inputs<readonly EngineStageName[]>;
    const ready = s.needs.filter((n) => !s.early?.includes(n)).map((n) => inputs[n]);
    return Promise.all(ready).then(() => {
      // Checked inside the hook's run: the pipeline records a budget spent at this boundary against this stage.
      const run = async (): Promise<StageOutputs[N]> => {
        between();
        return s.run(ctx, inputs);
      };
      return hooks.around ? hooks.around(name, run) : run();
    });
  };
  for (const name of ENGINE_STAGE_NAMES) {
    if (hooks.done?.(name)) continue;
    const p = start(name);
    started.set(name, p);
    if (hooks.overlap)
      p.catch(() => undefined); // awaited below, in order; a failure must not be left unhandled
    else await p;
  }
  for (const p of started.values()) await p;
  return output;
}
