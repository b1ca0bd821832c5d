export type Check = () => Promise<{ ok: boolean; detail?: string }> | { ok: boolean; detail?: string };

export interface ReadinessReport {
  status: 'ok' | 'unready' | 'stopping';
  checks: Record<string, { ok: boolean; detail?: string }>;
}

/** The service's own dependencies, checked on every /ready call with a bounded wait each. */
export class Readiness {
  private readonly checks = new Map<string, Check>();
  private stopping = false;

  add(name: string, check: Check): this {
    this.checks.set(name, check);
    return this;
  }

  /** First step of shutdown: load balancers see 503 before anything closes. */
  markStopping(): void {
    this.stopping = true;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async evaluate(timeoutMs = 2000): Promise<ReadinessReport> {
    const checks: ReadinessReport['checks'] = {};
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        checks[name] = await withTimeout(Promise.resolve().then(check), timeoutMs).catch((e: unknown) => ({
          ok: false,
          detail: e instanceof TimeoutMarker ? 'timed out' : 'check failed',
        }));
      }),
    );
    if (this.stopping) return { status: 'stopping', checks };
    return { status: Object.values(checks).every((c) => c.ok) ? 'ok' : 'unready', checks };
  }
}

class TimeoutMarker extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutMarker()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
