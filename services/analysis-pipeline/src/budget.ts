// One time budget per analysis (`timeBudgetMs`; the engine's Deadline is "shared by the stages of one analysis"):
// the stages' recorded times say what the analysis has spent, so a job resumed by another worker, or after a restart,
// goes on with what is left instead of a fresh budget. Only time in a stage counts: time waiting in the queue, or for
// a dead worker's job to be taken over, is not the analysis's doing.
import { EngineError } from '@lineage/engine';

/** A stage as the analysis row records it (seconds, as decimal strings). */
export interface StageTimes {
  state: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * Milliseconds the analysis has spent in its stages: each finished (or failed) stage from start to finish, a stage
 * left running by a worker that died up to the row's last write (`lastSeen`, its last sign of life), and the earlier
 * attempts of stages that ran again (`interruptedMs`, kept on the row: a retry overwrites the stage's times).
 */
export function spentMs(stages: readonly StageTimes[], interruptedMs: number, lastSeen: number): number {
  let seconds = 0;
  for (const s of stages) {
    if (s.startedAt === null) continue;
    const start = Number(s.startedAt);
    const end = s.finishedAt !== null ? Number(s.finishedAt) : s.state === 'running' ? lastSeen : start;
    seconds += Math.max(0, end - start);
  }
  return seconds * 1000 + interruptedMs;
}

/** The analysis ran out of its time budget in `stage`: a limit, like the engine's own (exit 3 in the CLI). */
export function budgetExceeded(stage: string, budgetMs: number): EngineError {
  const err = new EngineError(
    'REPOSITORY_TOO_LARGE',
    `the analysis's time budget (timeBudgetMs, ${budgetMs} ms across all its stages) ran out in the ${stage} stage`,
    'timeBudgetMs',
  );
  err.stage = stage;
  return err;
}
