import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets a long computation on the main thread give the event loop a turn every
 * few milliseconds. Compare computes its layers while dating waits on git and
 * the fingerprint workers: each step of a dating needs this thread for a moment
 * (a blob read, a reply from a worker), and a layer computed in one block held
 * every dating, and so the idle workers, until it ended. Yielding changes when
 * the work runs, never what it computes.
 */
export class Pacer {
  private since = performance.now();
  private calls = 0;

  constructor(private readonly sliceMs = 5) {}

  /** Call once per item of a loop: resolves at once (no turn of the event loop) unless the slice is used up. */
  step(): Promise<void> | undefined {
    // The clock is read every 256 calls: items take about a microsecond each.
    if ((++this.calls & 255) !== 0 || performance.now() - this.since < this.sliceMs) return undefined;
    return nextTurn().then(() => {
      this.since = performance.now();
    });
  }
}
