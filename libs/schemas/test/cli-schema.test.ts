// The JSON Schema the engine package ships for the CLI's --json output is the one these zod schemas give:
// a change to either without the other fails here (regenerate: libs/schemas/scripts/cli-schema.ts).
import { readFileSync } from 'node:fs';
import { CliAnalyzeOutput, CliErrorOutput, cliOutputJsonSchema } from '@lineage/schemas';
import { CLI_SCHEMA_FILE } from '../scripts/cli-schema';

test('libs/engine/schema/cli-output.schema.json is generated from the zod schemas', () => {
  expect(JSON.parse(readFileSync(CLI_SCHEMA_FILE, 'utf8'))).toEqual(cliOutputJsonSchema());
});

test('the schema holds the vocabularies and refuses what the CLI never writes', () => {
  expect(CliErrorOutput.safeParse({ error: { code: 'COMMIT_NOT_FOUND', message: 'commit not found', side: 'origin' } }).success).toBe(true);
  expect(CliErrorOutput.safeParse({ error: { code: 'X', message: 'm' }, stack: 'at …' }).success).toBe(false);
  const partial = { verdict: 'DERIVED', confidence: 'HIGH', direction: 'NONE', manifestHash: '0x' + '0'.repeat(64) };
  expect(CliAnalyzeOutput.safeParse(partial).success).toBe(false);
});
