// The CLI's `--json` output (libs/engine/src/cli.ts), one JSON line per run: a stable schema, shipped with the
// engine package as JSON Schema (libs/engine/schema/cli-output.schema.json, written by
// libs/schemas/scripts/cli-schema.ts and checked against these by the tests).
import { z } from './zod';
import { Confidence, Direction, Verdict } from './common';
import { ManifestSchema } from './manifest';

const Sha256 = z.string().regex(/^0x[0-9a-f]{64}$/);

/** `lineage analyze --json`. */
export const CliAnalyzeOutput = z.strictObject({
  verdict: Verdict,
  confidence: Confidence,
  direction: Direction,
  manifestHash: Sha256,
  manifest: ManifestSchema,
});

/** `lineage verify --json`. */
export const CliVerifyOutput = z.strictObject({
  identical: z.boolean(),
  expectedHash: Sha256,
  actualHash: Sha256,
  /** the file given was not in canonical form: its canonical bytes were compared */
  recanonicalised: z.boolean(),
  engine: z.strictObject({ manifest: z.string(), local: z.string() }),
  /** the first value that differs, by JSON path (`$.evidence[3].detail`) */
  difference: z.strictObject({ path: z.string(), expected: z.string(), actual: z.string() }).nullable(),
});

/** Either command's `--json` when it fails: the engine's error code, and where it happened. */
export const CliErrorOutput = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    limit: z.string().optional(),
    stage: z.string().optional(),
    side: z.enum(['origin', 'target']).optional(),
  }),
});

export const CliOutput = z.union([CliAnalyzeOutput, CliVerifyOutput, CliErrorOutput]);

/** The JSON Schema (draft-07) of every `--json` line, as the engine package ships it. */
export function cliOutputJsonSchema(): Record<string, unknown> {
  return {
    title: 'lineage CLI --json output (analyze, verify, or an error of either)',
    ...z.toJSONSchema(CliOutput, { target: 'draft-7', io: 'output' }),
  };
}
