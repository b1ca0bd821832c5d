import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout; `service` on every line, `requestId` on every line of a request. */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Never log credentials even if a caller puts them in a logged object.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.password', 'bearer', 'cancelToken'], remove: true },
  });
}
