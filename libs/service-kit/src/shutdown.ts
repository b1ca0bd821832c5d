import type { Logger } from './logger';
import type { Readiness } from './readiness';

export interface ShutdownStep {
  name: string;
  run(): Promise<void>;
}

/**
 * SIGTERM/SIGINT: readiness turns 503 first, then the steps run in order
 * (stop intake, finish in-flight work, drain NATS, close pools), then exit 0.
 * If the budget runs out the process exits 1 so the orchestrator sees it.
 */
export function installShutdown(opts: {
  log: Logger;
  readiness: Readiness;
  timeoutMs: number;
  steps: ShutdownStep[];
  exit?: (code: number) => void;
}): () => Promise<void> {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let started: Promise<void> | null = null;
  const run = (): Promise<void> => {
    if (started) return started;
    opts.readiness.markStopping();
    opts.log.info({ timeoutMs: opts.timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      opts.log.error('shutdown budget exhausted; exiting');
      exit(1);
    }, opts.timeoutMs);
    timer.unref();
    started = (async () => {
      for (const step of opts.steps) {
        try {
          await step.run();
          opts.log.info({ step: step.name }, 'shutdown step done');
        } catch (err) {
          opts.log.error({ err, step: step.name }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      opts.log.info('shutdown complete');
      exit(0);
    })();
    return started;
  };
  process.once('SIGTERM', () => void run());
  process.once('SIGINT', () => void run());
  return run;
}
