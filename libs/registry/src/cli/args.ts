import { parseArgs } from 'node:util';

/** Parses --name value options; unknown options are an error (util.parseArgs strict mode). */
export function cliOptions<T extends Record<string, { type: 'string' }>>(spec: T): { [K in keyof T]?: string } {
  const { values } = parseArgs({ options: spec, strict: true, allowPositionals: false });
  return values as { [K in keyof T]?: string };
}

export function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new Error(`--${name} is required`);
  return value;
}

/** JSON with bigints as decimal strings (the API's identifier convention). */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString(10) : v));
}

export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
