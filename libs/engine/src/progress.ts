// The CLI's progress line. Only on a terminal: a pipe or a log file gets no bar
// and no control characters at all (the JSON and the report go to stdout).
import type { Progress, ProgressFn } from './types';

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(s: string): unknown;
}

/** One line redrawn in place (`\r` and erase-to-end); every count is a real one the engine reported. */
export function terminalProgress(stream: ProgressStream): { onProgress: ProgressFn; end(): void } | undefined {
  if (!stream.isTTY) return undefined;
  let drawn = false;
  const onProgress = (p: Progress): void => {
    const width = 24;
    const filled = p.total > 0 ? Math.min(width, Math.round((p.done / p.total) * width)) : 0;
    const text = `${p.stage.padEnd(11)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} ${p.unit}${p.side ? ` (${p.side})` : ''}`;
    stream.write(`\r${text.slice(0, Math.max(20, (stream.columns || 80) - 1))}\x1b[K`);
    drawn = true;
  };
  return {
    onProgress,
    end: () => {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
