// Writes the JSON Schema of the CLI's --json output into the engine package (libs/engine/schema/), from the zod
// schemas in src/cli.ts. Rerun after changing them: node -r ./scripts/swc-register.cjs libs/schemas/scripts/cli-schema.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliOutputJsonSchema } from '../src/cli';

export const CLI_SCHEMA_FILE = join(__dirname, '..', '..', 'engine', 'schema', 'cli-output.schema.json');

if (require.main === module) writeFileSync(CLI_SCHEMA_FILE, JSON.stringify(cliOutputJsonSchema(), null, 2) + '\n');
