// The fingerprint cache's metrics (docs/operations.md): read from the cache at scrape time, since it counts for
// itself whichever job used it. Zero when the process keeps no cache (FINGERPRINT_CACHE_MB=0).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { FingerprintCache } from '@lineage/engine';

export function fingerprintCacheMetrics(registry: Registry, cache: FingerprintCache | null): void {
  const gauge = (name: string, help: string, value: () => number): void =>
    void new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  // A counter of the cache's own running count: each scrape adds what it grew by since the last.
  const counter = (name: string, help: string, value: () => number): void => {
    let seen = 0;
    void new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const now = value();
        this.inc(now - seen);
        seen = now;
      },
    });
  };
  gauge(
    'lineage_fingerprint_cache_bytes',
    'Bytes of tokenised files this process keeps across analyses, as the cache counts them',
    () => cache?.bytes ?? 0,
  );
  gauge('lineage_fingerprint_cache_files', 'Tokenised files this process keeps across analyses', () => cache?.size ?? 0);
  counter(
    'lineage_fingerprint_cache_hits_total',
    'Files analyses took from the fingerprint cache instead of tokenising them',
    () => cache?.hits ?? 0,
  );
  counter(
    'lineage_fingerprint_cache_misses_total',
    'Files analyses looked up in the fingerprint cache and did not find',
    () => cache?.misses ?? 0,
  );
  counter(
    'lineage_fingerprint_cache_evictions_total',
    'Files the fingerprint cache let go to stay within FINGERPRINT_CACHE_MB',
    () => cache?.evictions ?? 0,
  );
}
