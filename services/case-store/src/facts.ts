// The chain side of a case: its fact key (computed off-chain from the pinned pair)
// and the fact-indexer's view of that fact. A case read never fails because the
// chain side is missing or slow: the fact is then null.
import { subjects, type factsApi } from '@lineage/schemas';
import { ApiError, type Logger, type Nats } from '@lineage/service-kit';
import { lineageFactKey } from '@lineage/registry';
import type { z } from 'zod';
import type { CaseRow } from './store';

type Fact = z.output<typeof factsApi.Fact>;

/**
 * Which fact keys the indexer has, refreshed every `intervalMs` from `lineage.facts.list`.
 * Most cases have no fact; the set lets a case read skip asking the indexer for those.
 * It only ever answers "absent" while fresh (refreshed within 3 intervals); otherwise,
 * or past `maxFacts` keys, it answers "unknown" and the read asks the indexer as usual.
 * A fact asserted since the last refresh reads as null for at most one interval.
 */
export class FactPresence {
  private keys: Set<string> | null = null;
  private refreshedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly nats: () => Nats,
    private readonly log: Logger,
    private readonly intervalMs: number,
    private readonly maxFacts: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    const loop = async () => {
      await this.refresh();
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.intervalMs).unref();
    };
    void loop();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  async refresh(): Promise<void> {
    const keys = new Set<string>();
    let cursor: string | undefined;
    try {
      for (let pages = 0; ; pages++) {
        const page = await this.nats().request(
          subjects.facts.list,
          { limit: 100, ...(cursor ? { cursor } : {}) },
          { requestId: `fact-presence-${pages}` },
        );
        for (const f of page.items) keys.add(f.factKey);
        if (keys.size > this.maxFacts) {
          this.keys = null; // too many to mirror: every read asks
          return;
        }
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      this.keys = keys;
      this.refreshedAt = this.now();
    } catch (err) {
      this.log.debug({ code: err instanceof ApiError ? err.code : 'error' }, 'fact presence not refreshed');
    }
  }

  state(factKey: string): 'present' | 'absent' | 'unknown' {
    if (this.keys === null || this.now() - this.refreshedAt > 3 * this.intervalMs) return 'unknown';
    return this.keys.has(factKey) ? 'present' : 'absent';
  }
}

export class CaseFacts {
  constructor(
    private readonly nats: () => Nats,
    private readonly templateId: string,
    private readonly timeoutMs: number,
    private readonly presence: Pick<FactPresence, 'state'> | null = null,
  ) {}

  get template(): string {
    return this.templateId;
  }

  /**
   * factKey = lineageFactKey(templateId, pinned pair); null if the pair cannot be a subject
   * (e.g. an over-long URL). The key stored at publication is used while the template is unchanged.
   */
  factKey(
    row: Pick<CaseRow, 'origin_url' | 'origin_commit' | 'target_url' | 'target_commit'> &
      Partial<Pick<CaseRow, 'fact_template_id' | 'fact_key'>>,
  ): string | null {
    if (row.fact_template_id !== undefined && row.fact_template_id !== null && String(row.fact_template_id) === this.templateId)
      return row.fact_key ?? null;
    try {
      return lineageFactKey(this.templateId, {
        originUrl: row.origin_url,
        originCommit: row.origin_commit,
        targetUrl: row.target_url,
        targetCommit: row.target_commit,
      }).toString(10);
    } catch {
      return null;
    }
  }

  /**
   * The indexed fact, or null when there is none or the indexer cannot answer in time.
   * `authoritative` skips the presence shortcut (challenge preparation must see the newest state).
   */
  async fact(
    factKey: string | null,
    ctx: { requestId: string; log: Logger },
    opts: { authoritative?: boolean } = {},
  ): Promise<Fact | null> {
    if (factKey === null) return null;
    if (!opts.authoritative && this.presence?.state(factKey) === 'absent') return null;
    try {
      const res = await this.nats().request(subjects.facts.get, { factKey }, { requestId: ctx.requestId, timeoutMs: this.timeoutMs });
      return res.fact;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'FACT_NOT_FOUND'))
        ctx.log.debug({ code: err instanceof ApiError ? err.code : 'error' }, 'fact unavailable; reporting null');
      return null;
    }
  }
}
