// Write side of the facts schema. A Batch loads the rows a run of events
// touches, applies the events in memory (fold.ts) and writes everything back
// in bulk inside the caller's transaction. Changes made by blocks above the
// finalized one leave before-images in `journal`, which `rollbackTo` replays.
import type { Knex } from '@lineage/service-kit';
import {
  activityIds,
  assertionIdOf,
  factKeyOf,
  foldAssertion,
  foldView,
  freshUntil,
  howOf,
  outcomeOf,
  seqOf,
  type AssertionState,
  type ChainEvent,
  type FactView,
} from './fold';
import { SCHEMA } from './migrations';

export interface FactRow {
  fact_key: string;
  template_id: string;
  subject_hash: string;
  canonical: FactView | null;
  latest: FactView | null;
  canonical_outcome: string | null;
  canonical_fresh_until: string | null;
  fresh_until: string | null;
  block_number: string;
}

export interface AssertionRow {
  assertion_id: string;
  fact_key: string;
  policy_id: string;
  state: AssertionState;
  block_number: string;
}

export interface CursorRow {
  id: number;
  chain_id: string | null;
  registry: string | null;
  indexed_block: string | null;
  finalized_block: string | null;
  chain_finalized_block: string | null;
  head_block: string | null;
  head_timestamp: string | null;
  halted: string | null;
  /** The registry's deployment block (0 when chain-reader is not told it) and its hash: with chain id and registry, which chain this is. */
  deployed_block: string | null;
  deployed_block_hash: string | null;
}

const CHUNK = 500;
const t = (db: Knex | Knex.Transaction, name: string) => db.withSchema(SCHEMA).table(name);
const str = (v: unknown): string => String(v);

async function insertChunks(trx: Knex.Transaction, table: string, rows: object[], conflict: string, merge: boolean): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const q = t(trx, table)
      .insert(rows.slice(i, i + CHUNK))
      .onConflict(conflict);
    await (merge ? q.merge() : q.ignore());
  }
}

type Columns = readonly (readonly [string, string])[];

/**
 * Many rows in one statement and one parameter: the rows travel as a JSON
 * array and PostgreSQL unpacks them (jsonb_to_recordset). Much cheaper than a
 * wide multi-row VALUES list built by the query builder.
 */
async function bulkUpsert(
  trx: Knex.Transaction,
  table: string,
  cols: Columns,
  rows: Record<string, unknown>[],
  conflict: string | null,
  merge: readonly string[] = [],
): Promise<void> {
  if (rows.length === 0) return;
  const names = cols.map(([n]) => `"${n}"`).join(', ');
  const defs = cols.map(([n, ty]) => `"${n}" ${ty}`).join(', ');
  const onConflict =
    conflict === null
      ? ''
      : merge.length === 0
        ? ` on conflict (${conflict}) do nothing`
        : ` on conflict (${conflict}) do update set ${merge.map((m) => `"${m}" = excluded."${m}"`).join(', ')}`;
  await trx.raw(`insert into ${SCHEMA}.${table} (${names}) select ${names} from jsonb_to_recordset(?::jsonb) as x(${defs})${onConflict}`, [
    JSON.stringify(rows),
  ]);
}

const EVENT_COLS = [
  ['seq', 'int8'],
  ['kind', 'text'],
  ['args', 'jsonb'],
  ['fact_key', 'numeric'],
  ['assertion_id', 'numeric'],
  ['resolution_id', 'numeric'],
  ['policy_id', 'numeric'],
  ['template_id', 'numeric'],
  ['actor', 'text'],
  ['block_number', 'int8'],
  ['block_hash', 'text'],
  ['tx_hash', 'text'],
  ['log_index', 'int4'],
  ['timestamp', 'int8'],
] as const;
const FACT_COLS = [
  ['fact_key', 'numeric'],
  ['template_id', 'numeric'],
  ['subject_hash', 'text'],
  ['canonical', 'jsonb'],
  ['latest', 'jsonb'],
  ['canonical_outcome', 'text'],
  ['canonical_fresh_until', 'int8'],
  ['fresh_until', 'int8'],
  ['block_number', 'int8'],
] as const;
const ASSERTION_COLS = [
  ['assertion_id', 'numeric'],
  ['fact_key', 'numeric'],
  ['policy_id', 'numeric'],
  ['state', 'jsonb'],
  ['block_number', 'int8'],
] as const;
const JOURNAL_COLS = [
  ['block_number', 'int8'],
  ['tbl', 'text'],
  ['pk', 'text'],
  ['before', 'jsonb'],
] as const;

const jsonCols = <T extends { canonical?: unknown; latest?: unknown; state?: unknown; args?: unknown; before?: unknown }>(r: T) => {
  const out: Record<string, unknown> = { ...r };
  for (const k of ['canonical', 'latest', 'state', 'args', 'before'])
    if (k in out) out[k] = out[k] === null || out[k] === undefined ? null : JSON.stringify(out[k]);
  return out;
};

function normaliseFact(r: Record<string, unknown>): FactRow {
  return {
    fact_key: str(r.fact_key),
    template_id: str(r.template_id),
    subject_hash: str(r.subject_hash),
    canonical: (r.canonical ?? null) as FactView | null,
    latest: (r.latest ?? null) as FactView | null,
    canonical_outcome: (r.canonical_outcome ?? null) as string | null,
    canonical_fresh_until: r.canonical_fresh_until === null || r.canonical_fresh_until === undefined ? null : str(r.canonical_fresh_until),
    fresh_until: r.fresh_until === null || r.fresh_until === undefined ? null : str(r.fresh_until),
    block_number: str(r.block_number),
  };
}

function normaliseAssertion(r: Record<string, unknown>): AssertionRow {
  return {
    assertion_id: str(r.assertion_id),
    fact_key: str(r.fact_key),
    policy_id: str(r.policy_id),
    state: r.state as AssertionState,
    block_number: str(r.block_number),
  };
}

export class Batch {
  private readonly facts = new Map<string, FactRow | null>();
  private readonly assertions = new Map<string, AssertionRow | null>();
  private readonly freshness = new Map<string, string>();
  private readonly dirtyFacts = new Set<string>();
  private readonly dirtyAssertions = new Set<string>();
  private readonly journaled = new Set<string>();
  private readonly journal: { block_number: string; tbl: string; pk: string; before: unknown }[] = [];
  private readonly events: Record<string, unknown>[] = [];
  private readonly templates: Record<string, unknown>[] = [];
  private readonly policies: Record<string, unknown>[] = [];
  private readonly resolutions: Record<string, unknown>[] = [];
  applied = 0;

  /** `journalAbove`: changes made by blocks above this one are journaled (they may be reorged away). */
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly journalAbove: bigint,
  ) {}

  /** Load every row the events touch, in three queries. */
  async load(events: ChainEvent[]): Promise<void> {
    const keys = new Set<string>();
    const ids = new Set<string>();
    const policyIds = new Set<string>();
    for (const e of events) {
      const k = factKeyOf(e);
      if (k) keys.add(k);
      const a = assertionIdOf(e);
      if (a && e.name !== 'BondCredited') ids.add(a);
      if (e.name === 'FactAsserted') policyIds.add(String(e.args.policyId));
    }
    for (const k of keys) this.facts.set(k, null);
    for (const id of ids) this.assertions.set(id, null);
    // Raw: one array parameter (`= any(?)`), where the builder's whereIn binds one parameter per key (a batch has thousands).
    if (keys.size > 0) {
      const rows = await this.trx.raw(`select * from ${SCHEMA}.facts where fact_key = any(?::numeric[])`, [[...keys]]);
      for (const r of rows.rows) this.facts.set(str(r.fact_key), normaliseFact(r));
    }
    if (ids.size > 0) {
      const rows = await this.trx.raw(`select * from ${SCHEMA}.assertions where assertion_id = any(?::numeric[])`, [[...ids]]);
      for (const r of rows.rows) {
        const a = normaliseAssertion(r);
        this.assertions.set(a.assertion_id, a);
        policyIds.add(a.policy_id);
      }
    }
    if (policyIds.size > 0) {
      for (const r of await t(this.trx, 'policies')
        .whereIn('policy_id', [...policyIds])
        .select('policy_id', 'freshness_seconds')) {
        this.freshness.set(str(r.policy_id), str(r.freshness_seconds));
      }
    }
  }

  private remember(block: string, tbl: 'facts' | 'assertions', pk: string, before: unknown): void {
    if (BigInt(block) <= this.journalAbove) return;
    const key = `${block}:${tbl}:${pk}`;
    if (this.journaled.has(key)) return;
    this.journaled.add(key);
    this.journal.push({ block_number: block, tbl, pk, before: before === null ? null : structuredClone(before) });
  }

  /** Apply an event to the latest state (and record it as activity). */
  applyLatest(e: ChainEvent): void {
    this.applied += 1;
    const ids = activityIds(e);
    this.events.push({
      seq: seqOf(e.blockNumber, e.logIndex),
      kind: e.name,
      args: e.args,
      fact_key: ids.factKey,
      assertion_id: ids.assertionId,
      resolution_id: ids.resolutionId,
      policy_id: ids.policyId,
      template_id: ids.templateId,
      actor: ids.actor,
      block_number: e.blockNumber,
      block_hash: e.blockHash,
      tx_hash: e.txHash,
      log_index: e.logIndex,
      timestamp: e.blockTimestamp,
    });
    const where = { block_number: e.blockNumber, tx_hash: e.txHash };
    switch (e.name) {
      case 'TemplateRegistered':
        this.templates.push({
          template_id: e.args.templateId,
          text: e.args.text,
          text_hash: e.args.textHash,
          created_at: e.blockTimestamp,
          ...where,
        });
        return;
      case 'PolicyRegistered':
        this.policies.push({
          policy_id: e.args.policyId,
          family: e.args.family,
          version: e.args.version,
          liveness_seconds: e.args.liveness,
          bond_wei: e.args.bond,
          resolver: e.args.resolver,
          freshness_seconds: e.args.freshness,
          created_at: e.blockTimestamp,
          ...where,
        });
        this.freshness.set(String(e.args.policyId), String(e.args.freshness));
        return;
      case 'AssertionResolved':
        this.resolutions.push({
          resolution_id: e.args.resolutionId,
          fact_key: e.args.factKey,
          assertion_id: e.args.assertionId,
          outcome: outcomeOf(String(e.args.outcome)),
          method: howOf(String(e.args.how)),
          resolved_by: e.args.resolvedBy,
          block_hash: e.blockHash,
          resolved_at: e.blockTimestamp,
          ...where,
        });
        break;
      case 'FactAsserted':
      case 'AssertionChallenged':
        break;
      default:
        return;
    }
    const id = String(e.args.assertionId);
    const prevA = this.assertions.get(id) ?? null;
    this.remember(e.blockNumber, 'assertions', id, prevA);
    const nextState = foldAssertion(prevA?.state ?? null, e);
    if (nextState) {
      this.assertions.set(id, {
        assertion_id: id,
        fact_key: nextState.factKey,
        policy_id: nextState.policyId,
        state: nextState,
        block_number: prevA?.block_number ?? e.blockNumber,
      });
      this.dirtyAssertions.add(id);
    }
    const key = String(e.args.factKey);
    const prevF = this.facts.get(key) ?? null;
    this.remember(e.blockNumber, 'facts', key, prevF);
    const row: FactRow = prevF
      ? { ...prevF }
      : {
          fact_key: key,
          template_id: String(e.args.templateId ?? '0'),
          subject_hash: String(e.args.subjectHash ?? ''),
          canonical: null,
          latest: null,
          canonical_outcome: null,
          canonical_fresh_until: null,
          fresh_until: null,
          block_number: e.blockNumber,
        };
    if (!prevF && e.name !== 'FactAsserted') return; // an event for a fact we never saw asserted cannot happen on this contract
    row.latest = foldView(row.latest, e);
    row.fresh_until = freshUntil(row.canonical, row.latest, row.canonical_fresh_until);
    this.facts.set(key, row);
    this.dirtyFacts.add(key);
  }

  /** Apply a finalized event to the canonical view. Canonical never rolls back, so it is never journaled. */
  applyCanonical(e: ChainEvent): void {
    const key = factKeyOf(e);
    if (!key) return;
    const row = this.facts.get(key);
    if (!row) return;
    const next = foldView(row.canonical, e);
    if (next === row.canonical) return;
    const updated: FactRow = { ...row, canonical: next, canonical_outcome: next?.outcome ?? null };
    if (next && next.status === 'RESOLVED' && e.name === 'AssertionResolved') {
      const a = this.assertions.get(next.assertionId);
      const fresh = a ? this.freshness.get(a.policy_id) : undefined;
      updated.canonical_fresh_until = fresh === undefined ? null : (BigInt(e.blockTimestamp) + BigInt(fresh)).toString();
    } else if (!next || next.status !== 'RESOLVED') {
      updated.canonical_fresh_until = null;
    }
    updated.fresh_until = freshUntil(updated.canonical, updated.latest, updated.canonical_fresh_until);
    this.facts.set(key, updated);
    this.dirtyFacts.add(key);
  }

  async flush(): Promise<void> {
    const trx = this.trx;
    await bulkUpsert(trx, 'events', EVENT_COLS, this.events, 'seq');
    await insertChunks(trx, 'templates', this.templates, 'template_id', false);
    await insertChunks(trx, 'policies', this.policies, 'policy_id', false);
    await insertChunks(trx, 'resolutions', this.resolutions, 'resolution_id', false);
    await bulkUpsert(
      trx,
      'assertions',
      ASSERTION_COLS,
      [...this.dirtyAssertions].map((id) => ({ ...this.assertions.get(id)! })),
      'assertion_id',
      ['fact_key', 'policy_id', 'state'],
    );
    await bulkUpsert(
      trx,
      'facts',
      FACT_COLS,
      [...this.dirtyFacts].map((k) => ({ ...this.facts.get(k)! })),
      'fact_key',
      ['canonical', 'latest', 'canonical_outcome', 'canonical_fresh_until', 'fresh_until'],
    );
    await bulkUpsert(trx, 'journal', JOURNAL_COLS, this.journal, null);
  }
}

/** Undo every change made by blocks above `block`, newest first. Canonical views are untouched (they never exceed finality). */
export async function rollbackTo(trx: Knex.Transaction, block: bigint): Promise<number> {
  const entries = await t(trx, 'journal').where('block_number', '>', block.toString()).orderBy('id', 'desc');
  for (const j of entries) {
    if (j.tbl === 'assertions') {
      if (j.before === null) await t(trx, 'assertions').where('assertion_id', j.pk).delete();
      else await t(trx, 'assertions').insert(jsonCols(j.before)).onConflict('assertion_id').merge();
    } else if (j.tbl === 'facts') {
      const current = await t(trx, 'facts').where('fact_key', j.pk).first();
      if (j.before === null) {
        if (current && current.canonical !== null) throw new Error('journal would delete a fact with a canonical view');
        await t(trx, 'facts').where('fact_key', j.pk).delete();
      } else if (current) {
        const latest = (j.before as FactRow).latest;
        const fresh = freshUntil(
          current.canonical,
          latest,
          current.canonical_fresh_until === null ? null : String(current.canonical_fresh_until),
        );
        await t(trx, 'facts')
          .where('fact_key', j.pk)
          .update({ latest: latest === null ? null : JSON.stringify(latest), fresh_until: fresh });
      }
    }
  }
  await t(trx, 'journal').where('block_number', '>', block.toString()).delete();
  for (const table of ['events', 'templates', 'policies', 'resolutions'])
    await t(trx, table).where('block_number', '>', block.toString()).delete();
  await t(trx, 'blocks').where('number', '>', block.toString()).delete();
  return entries.length;
}

export const readCursor = async (db: Knex | Knex.Transaction, lock = false): Promise<CursorRow | undefined> => {
  const q = t(db, 'cursor').where('id', 1).first();
  return (lock ? q.forUpdate() : q) as Promise<CursorRow | undefined>;
};

export async function writeCursor(trx: Knex.Transaction, patch: Partial<Omit<CursorRow, 'id'>>): Promise<void> {
  await t(trx, 'cursor')
    .insert({ id: 1, ...patch, updated_at: Math.floor(Date.now() / 1000) })
    .onConflict('id')
    .merge();
}

export async function storedBlocks(db: Knex | Knex.Transaction, from: bigint): Promise<Map<bigint, { hash: string; parent_hash: string }>> {
  const rows = await t(db, 'blocks').where('number', '>=', from.toString()).orderBy('number', 'asc');
  return new Map(rows.map((r: { number: string; hash: string; parent_hash: string }) => [BigInt(r.number), r]));
}

export async function storeBlocks(
  trx: Knex.Transaction,
  headers: { number: string; hash: string; parentHash: string; timestamp: string }[],
): Promise<void> {
  await insertChunks(
    trx,
    'blocks',
    headers.map((h) => ({ number: h.number, hash: h.hash, parent_hash: h.parentHash, timestamp: h.timestamp })),
    'number',
    true,
  );
}

/** Finalized history needs no undo log, and only the finalized block's header is needed for the parent check. */
export async function prune(trx: Knex.Transaction, finalized: bigint): Promise<void> {
  await t(trx, 'journal').where('block_number', '<=', finalized.toString()).delete();
  await t(trx, 'blocks').where('number', '<', finalized.toString()).delete();
}

/** Events of (from, to] as the chain-reader delivered them, for the canonical side to catch up. */
export async function eventsBetween(db: Knex | Knex.Transaction, from: bigint, to: bigint): Promise<ChainEvent[]> {
  const rows = await t(db, 'events')
    .where('block_number', '>', from.toString())
    .andWhere('block_number', '<=', to.toString())
    .orderBy('seq', 'asc');
  return rows.map((r: Record<string, unknown>) => ({
    name: r.kind as ChainEvent['name'],
    blockNumber: str(r.block_number),
    blockHash: str(r.block_hash),
    blockTimestamp: str(r.timestamp),
    txHash: str(r.tx_hash),
    logIndex: Number(r.log_index),
    args: r.args as ChainEvent['args'],
  }));
}

/** Empty every projection and the cursor (a different chain: nothing indexed so far applies to it). */
export async function resetProjections(trx: Knex.Transaction): Promise<void> {
  // Raw: the builder truncates one table per statement; this empties them all at once.
  await trx.raw(
    `truncate ${['events', 'resolutions', 'facts', 'assertions', 'policies', 'templates', 'blocks', 'journal', 'cursor'].map((x) => `${SCHEMA}.${x}`).join(', ')}`,
  );
}
