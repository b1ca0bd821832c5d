import { z } from '../zod';
import { AnalysisState, Commit, DecimalId, Hash32, StageName, StageState, Timestamp } from '../common';

/** Accepts `https://host/owner/repo(.git)`, `http(s)`/`git` where configured, or GitHub `owner/repo` shorthand. */
export const RepositoryUrl = z
  .string()
  .min(3)
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'printable_ascii');
/** Branch, tag or commit; git's own ref rules, minus anything that could be read as an option. */
export const GitRef = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[A-Za-z0-9._/+-]+$/, 'git_ref');

export const RepositoryInput = z.strictObject({ url: RepositoryUrl, ref: GitRef.optional() }).openapi('RepositoryInput');
export const ValidateRequest = z.strictObject({ origin: RepositoryInput, target: RepositoryInput }).openapi('ValidateRequest');

export const PinnedRepository = z
  .object({ url: z.string(), ref: z.string().nullable(), commit: Commit, committedAt: Timestamp })
  .openapi('PinnedRepository');
export const PinnedPair = z.object({ origin: PinnedRepository, target: PinnedRepository }).openapi('PinnedPair');
export const ValidateResponse = z.object({ pair: PinnedPair }).openapi('ValidateResponse');

/**
 * One side of the pair to analyse: a repository and the commit that pins it. `ref` and `committedAt` are what
 * `POST /repositories/validate` says of the pin, accepted so that its `pair` can be posted as it came back (their
 * shapes are checked; the commit id alone is the pin, and the analysis reads the commit's own time when it fetches it).
 */
export const PairInputSide = z.strictObject({
  url: RepositoryUrl,
  commit: Commit,
  ref: GitRef.nullable().optional(),
  committedAt: Timestamp.optional(),
});
export const CreateAnalysisRequest = z
  .strictObject({ pair: z.strictObject({ origin: PairInputSide, target: PairInputSide }) })
  .openapi('CreateAnalysisRequest');

export const Stage = z
  .object({
    name: StageName,
    state: StageState,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    done: z.number().int().nonnegative().nullable(),
    total: z.number().int().nonnegative().nullable(),
    unit: z.string().nullable(),
    /**
     * How many times the stage has been started: 0 while pending, 1 on its first run, 2 or more when a
     * worker took it over again (the previous one died, shut down or hit a transient failure). A default,
     * so a reply from an older replica still parses during a rolling update.
     */
    attempt: z.number().int().nonnegative().default(0),
  })
  .openapi('Stage');

export const AnalysisError = z.object({ code: z.string(), message: z.string(), limit: z.string().nullable() });

export const Analysis = z
  .object({
    id: DecimalId,
    state: AnalysisState,
    pair: z.object({
      origin: z.object({ url: z.string(), commit: Commit }),
      target: z.object({ url: z.string(), commit: Commit }),
    }),
    engineVersion: z.string(),
    stages: z.array(Stage),
    caseId: DecimalId.nullable(),
    manifestHash: Hash32.nullable(),
    error: AnalysisError.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Analysis');
export type Analysis = z.infer<typeof Analysis>;

export const CreateAnalysisResponse = z
  .object({ analysis: Analysis, cancelToken: z.string().nullable(), created: z.boolean() })
  .openapi('CreateAnalysisResponse');
export const AnalysisIdParams = z.strictObject({ id: DecimalId });
export const CancelResponse = z.object({ id: DecimalId, state: AnalysisState }).openapi('CancelResponse');
