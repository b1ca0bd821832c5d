// The writer lease: a PostgreSQL session-level advisory lock held on a
// dedicated connection. If the holder dies its connection closes and the
// server releases the lock at once, so a standby takes over on its next poll.
import { Client } from 'pg';
import type { Knex } from '@lineage/service-kit';

/** Two-int advisory key: 'LINE' and the facts writer. Advisory locks are per database. */
export const LEASE_KEY = [0x4c494e45, 0x66616374] as const;

export class LeaseLost extends Error {
  constructor() {
    super('the writer lease is no longer held');
  }
}

export class WriterLease {
  private client: Client | null = null;
  private pid: number | null = null;

  constructor(
    private readonly url: string,
    private readonly onLost: (err: unknown) => void = () => undefined,
  ) {}

  get held(): boolean {
    return this.client !== null && this.pid !== null;
  }

  /** Try once; true when this process now holds (or already held) the lease. */
  async tryAcquire(): Promise<boolean> {
    if (this.held) return this.verify();
    // Bounded: a database that vanished (or a black-holed address) must not stall the writer loop; the lease is then simply not held.
    const client = new Client({
      connectionString: this.url,
      application_name: 'fact-indexer-lease',
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5_000,
      query_timeout: 10_000,
    });
    client.on('error', (err) => this.drop(err));
    try {
      await client.connect();
      const r = await client.query('select pg_try_advisory_lock($1, $2) as ok, pg_backend_pid() as pid', [...LEASE_KEY]);
      if (r.rows[0]?.ok === true) {
        this.client = client;
        this.pid = Number(r.rows[0].pid);
        return true;
      }
    } catch {
      // unreachable database: not the writer
    }
    await client.end().catch(() => undefined);
    return false;
  }

  /** Checked every loop: the lease connection is alive and the server still lists the lock as ours. */
  async verify(): Promise<boolean> {
    if (!this.client || this.pid === null) return false;
    try {
      const r = await this.client.query(
        `select 1 from pg_locks where locktype = 'advisory' and classid = $1 and objid = $2 and objsubid = 2 and pid = pg_backend_pid() and granted`,
        [...LEASE_KEY],
      );
      if (r.rowCount === 1) return true;
    } catch (err) {
      this.drop(err);
      return false;
    }
    this.drop(new Error('lock missing'));
    return false;
  }

  /**
   * Fence inside a write transaction (on another connection): commit only if
   * the lock is still held by our lease session. A writer that lost its lease
   * mid-batch therefore cannot overwrite its successor's work.
   */
  async fence(trx: Knex.Transaction): Promise<void> {
    if (this.pid === null) throw new LeaseLost();
    const r = await trx.raw(
      `select 1 from pg_locks where locktype = 'advisory' and classid = ? and objid = ? and objsubid = 2 and pid = ? and granted`,
      [LEASE_KEY[0], LEASE_KEY[1], this.pid],
    );
    if (r.rows.length !== 1) throw new LeaseLost();
  }

  private drop(err: unknown): void {
    const had = this.held;
    const c = this.client;
    this.client = null;
    this.pid = null;
    c?.end().catch(() => undefined);
    if (had) this.onLost(err);
  }

  async release(): Promise<void> {
    const c = this.client;
    this.client = null;
    this.pid = null;
    if (!c) return;
    await c.query('select pg_advisory_unlock($1, $2)', [...LEASE_KEY]).catch(() => undefined);
    await c.end().catch(() => undefined);
  }
}
