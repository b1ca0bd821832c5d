// `make example`: two small repositories with real history, built offline with
// fixed contents and dates (the same commit ids on every machine), for the
// README's CLI example. The target is a declared fork of the origin.
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SCENARIOS } from '../test/fixtures/scenarios';

async function main(): Promise<void> {
  const out = join(__dirname, '..', process.argv[2] ?? '.example');
  const scenario = SCENARIOS.find((s) => s.name === 'fork-declared')!;
  rmSync(join(out, scenario.name), { recursive: true, force: true });
  const pair = await scenario.build(out);
  const rel = (p: string) => relative(process.cwd(), p) || '.';
  process.stdout.write(
    `example repositories (${scenario.why}):\n  origin ${rel(pair.origin.dir)} @ ${pair.origin.commit}\n  target ${rel(pair.target.dir)} @ ${pair.target.commit}\n`,
  );
}

void main();
