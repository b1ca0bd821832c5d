import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  natsDuration: Histogram<'subject' | 'outcome'>;
  natsHandled: Counter<'subject' | 'outcome'>;
  ready: Gauge;
}

/** One registry per service process; default metrics plus the shared HTTP/NATS histograms. */
export function createMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets,
      registers: [registry],
    }),
    natsDuration: new Histogram({
      name: 'nats_request_duration_seconds',
      help: 'Outgoing NATS request duration by subject and outcome',
      labelNames: ['subject', 'outcome'] as const,
      buckets,
      registers: [registry],
    }),
    natsHandled: new Counter({
      name: 'nats_handled_requests_total',
      help: 'NATS requests served by this process, by subject and outcome',
      labelNames: ['subject', 'outcome'] as const,
      registers: [registry],
    }),
    ready: new Gauge({ name: 'lineage_ready', help: '1 when this process reports ready', registers: [registry] }),
  };
}
