// The public surface of @lineage/service-kit, named one by one: what a service may import is read here.
export { ConfigError, baseEnv, databaseEnv, envTypes, loadConfig } from './config';
export { type Logger, createLogger } from './logger';
export { ApiError, fromReplyError, notFound, toReplyError, toWireError, validationError } from './errors';
export { STORE_UNAVAILABLE_MESSAGE, isStoreUnavailable } from './unavailable';
export { type ServiceMetrics, createMetrics } from './metrics';
export { type Check, Readiness, type ReadinessReport } from './readiness';
export {
  type HttpAppOptions,
  type HttpServerHandle,
  acceptRequestId,
  answerClientError,
  createHttpApp,
  finishHttpApp,
  listen,
  loggerOf,
  requestBodyError,
  requestIdOf,
  sendError,
} from './http';
export { type Handler, type HandlerContext, Nats } from './nats';
export {
  DB_ACQUIRE_TIMEOUT_MS,
  Knex,
  type Migration,
  createDb,
  dbCheck,
  ensureDatabase,
  fitsBigint,
  isMigrationRace,
  migrate,
  preparedQuery,
} from './db';
export { type ShutdownStep, installShutdown } from './shutdown';
export { type ServiceOptions, type ServiceRuntime, startService } from './runtime';
export { CursorCodec } from './cursor';
export {
  type KeysetColumn,
  type KeysetFetchOptions,
  type KeysetPage,
  type KeysetQueryOptions,
  idPosition,
  keysetPage,
  keysetQuery,
} from './pagination';
export {
  type Backoff,
  type ConsumeMessages,
  type ConsumeOptions,
  type Consumption,
  DEFAULT_BACKOFF,
  type Delivery,
  InvalidMessageError,
  JetStream,
  type MessageHandler,
  type Outcome,
  STORE_RETRY_MS,
  ensureConsumer,
  ensureStreams,
  heartbeatMs,
  holdThroughOutage,
  retryDelayMs,
} from './jetstream';
export { runMigrationCommand } from './migration-command';
export { baseServiceOptions, openServiceDb, runMain } from './main';
