// The CLI's commands and options, declared once: the parser, each command's --help and the suggestion for a
// mistyped option are all read from these tables.
import { join } from 'node:path';

export type Command = 'analyze' | 'verify';

interface OptionSpec {
  names: readonly string[];
  /** the value's placeholder; absent for a flag */
  value?: string;
  help: string;
  commands: readonly Command[];
}

const BOTH = ['analyze', 'verify'] as const;
export const OPTIONS: readonly OptionSpec[] = [
  { names: ['--origin-ref'], value: 'R', help: 'branch, tag or commit of the origin to pin (default HEAD)', commands: ['analyze'] },
  { names: ['--target-ref'], value: 'R', help: 'branch, tag or commit of the target to pin (default HEAD)', commands: ['analyze'] },
  {
    names: ['--origin-url'],
    value: 'U',
    help: "the public URL recorded for a local clone of the origin (to reproduce the service's manifest hash)",
    commands: ['analyze'],
  },
  { names: ['--target-url'], value: 'U', help: 'the same for the target', commands: ['analyze'] },
  {
    names: ['--json'],
    help: 'one JSON line on stdout, in the schema the package ships (schema/cli-output.schema.json)',
    commands: BOTH,
  },
  {
    names: ['--manifest'],
    value: 'FILE',
    help: 'write the canonical manifest bytes (their sha256 is the manifest hash)',
    commands: ['analyze'],
  },
  {
    names: ['--html'],
    value: 'FILE',
    help: 'write the report as one self-contained HTML file (no script, nothing fetched): signals, timeline, code side by side',
    commands: BOTH,
  },
  { names: ['--workers'], value: 'N', help: 'fingerprinting worker threads (default: cores, at most 2)', commands: BOTH },
  { names: ['--cache'], value: 'DIR', help: 'where URLs and owner/name are cloned (default ./.cache/repos)', commands: ['analyze'] },
  { names: ['--quiet', '-q'], help: 'no progress; one line for the result (and the manifest hash)', commands: BOTH },
  { names: ['--help', '-h'], help: "this command's help", commands: BOTH },
];

const COMMANDS: Record<Command, { usage: string; about: string }> = {
  analyze: {
    usage: 'lineage analyze <origin> <target> [options]',
    about:
      'Compares two git repositories pinned at exact commits and decides their lineage (independent, shared\n' +
      'upstream, declared fork, likely or heavily derived, or insufficient evidence), with a direction and a\n' +
      'confidence. <origin>/<target>: a local git directory (bare or not), an https URL, or owner/name on\n' +
      'GitHub (cloned into the cache first).',
  },
  verify: {
    usage: 'lineage verify <manifest.json | case or analysis URL> <origin> <target> [options]',
    about:
      'Recomputes a manifest (a file, or a case URL such as http://127.0.0.1:8080/api/v1/cases/1) from local\n' +
      'clones of its two repositories, with the commits, URLs and limits it records, and says "identical" or\n' +
      'shows the first difference.',
  },
};

const EXIT_CODES = `exit codes: 0 done (verify: identical), 1 analysis failed, 2 usage, 3 a limit was hit,
            4 repository/commit not found, unreadable or unreachable, 5 refused input,
            6 verify: the recomputed manifest differs`;

export const USAGE = `usage: ${COMMANDS.analyze.usage}
       ${COMMANDS.verify.usage}
       lineage <command> --help | lineage --help | lineage --version`;

const optionLines = (command: Command): string[] =>
  OPTIONS.filter((o) => o.commands.includes(command)).map((o) => {
    const name = o.names.join(', ') + (o.value ? ` ${o.value}` : '');
    return `  ${name.padEnd(20)} ${o.help}`;
  });

/** One command's help. */
export function commandHelp(command: Command): string {
  return [
    `usage: ${COMMANDS[command].usage}`,
    '',
    COMMANDS[command].about,
    '',
    'options',
    ...optionLines(command),
    '',
    EXIT_CODES,
    'docs: docs/engine.md',
  ].join('\n');
}

/** The help of `lineage --help`: every command. */
export const HELP = [
  USAGE,
  '',
  COMMANDS.analyze.about,
  '',
  ...(['analyze', 'verify'] as const).flatMap((c) => [c, ...optionLines(c), '']),
  'Nothing is written in colour (NO_COLOR needs nothing); the progress line is drawn only on a terminal (not under TERM=dumb).',
  '',
  EXIT_CODES,
  'docs: docs/engine.md',
].join('\n');

export interface Args {
  command: Command;
  /** --help for this command: print its help, nothing else */
  help: boolean;
  source: string;
  origin: string;
  target: string;
  originRef: string;
  targetRef: string;
  originUrl: string | undefined;
  targetUrl: string | undefined;
  json: boolean;
  quiet: boolean;
  manifest: string | null;
  html: string | null;
  workers: number | undefined;
  cache: string;
}

/** A usage error: the message says what is wrong; the command's usage follows it. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: Command | null,
  ) {
    super(message);
  }
}

export const isCommand = (v: string | undefined): v is Command => v === 'analyze' || v === 'verify';

/** Parses a command line; null for no command at all. */
export function parseArgs(argv: readonly string[]): Args | null {
  const command = argv[0];
  if (!isCommand(command)) return null;
  const a: Args = {
    command,
    help: false,
    source: '',
    origin: '',
    target: '',
    originRef: 'HEAD',
    targetRef: 'HEAD',
    originUrl: undefined,
    targetUrl: undefined,
    json: false,
    quiet: false,
    manifest: null,
    html: null,
    workers: undefined,
    cache: join(process.cwd(), '.cache', 'repos'),
  };
  const pos: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!;
    if (!v.startsWith('-') || v === '-') {
      pos.push(v);
      continue;
    }
    const spec = OPTIONS.find((o) => o.names.includes(v));
    if (!spec) throw new UsageError(`unknown option ${v}${suggestion(v, command)}`, command);
    if (!spec.commands.includes(command))
      throw new UsageError(
        `${v} is an option of ${spec.commands.join(' and ')}${command === 'verify' ? " (verify reads the manifest's own)" : ''}`,
        command,
      );
    let value = '';
    if (spec.value) {
      const n = argv[++i];
      if (n === undefined) throw new UsageError(`${v} needs a value`, command);
      value = n;
    }
    switch (spec.names[0]) {
      case '--origin-ref':
        a.originRef = value;
        break;
      case '--target-ref':
        a.targetRef = value;
        break;
      case '--origin-url':
        a.originUrl = publicUrl(v, value, command);
        break;
      case '--target-url':
        a.targetUrl = publicUrl(v, value, command);
        break;
      case '--json':
        a.json = true;
        break;
      case '--manifest':
        a.manifest = value;
        break;
      case '--html':
        a.html = value;
        break;
      case '--workers':
        a.workers = workerCount(value, command);
        break;
      case '--cache':
        a.cache = value;
        break;
      case '--quiet':
        a.quiet = true;
        break;
      case '--help':
        a.help = true;
        break;
    }
  }
  if (a.help) return a;
  const want = command === 'verify' ? 3 : 2;
  if (pos.length !== want)
    throw new UsageError(
      `${command} takes ${want === 3 ? 'a manifest, an origin and a target' : 'an origin and a target'} (${pos.length} given)`,
      command,
    );
  if (command === 'verify') [a.source, a.origin, a.target] = pos as [string, string, string];
  else [a.origin, a.target] = pos as [string, string];
  return a;
}

/** " (did you mean --json?)" for an option one or two edits from a long option of the command, else nothing. */
export const suggestion = (given: string, command: Command): string =>
  closest(
    given,
    OPTIONS.filter((o) => o.commands.includes(command)).flatMap((o) => o.names.filter((n) => n.startsWith('--'))),
  );

/** The same for a command. */
export const commandSuggestion = (given: string): string => closest(given, Object.keys(COMMANDS));

function closest(given: string, known: readonly string[]): string {
  let best: { name: string; d: number } | null = null;
  for (const name of known) {
    const d = editDistance(given, name);
    if (d <= 2 && (!best || d < best.d)) best = { name, d };
  }
  return best ? ` (did you mean ${best.name}?)` : '';
}

/** Levenshtein distance, for short option names. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The URL recorded in the manifest: what the service records for the same repository (no credentials, no query). */
function publicUrl(option: string, v: string, command: Command): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${option} must be a URL (https://host/owner/name)`, command);
  }
  if (!/^https?:$/.test(u.protocol) || u.username || u.password || u.search || u.hash)
    throw new UsageError(`${option} must be an http(s) URL without credentials, query or fragment`, command);
  return v;
}

function workerCount(v: string, command: Command): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError('--workers must be an integer from 1 to 64', command);
  return n;
}
