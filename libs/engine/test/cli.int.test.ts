import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { main } from '../src/cli';
import { manifestHash } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';
import { buildRepo } from '../../../test/fixtures/git-builder';

jest.setTimeout(120_000);
const base = mkdtempSync(join(tmpdir(), 'lineage-cli-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    const code = await main(args);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('lineage CLI', () => {
  it('prints a report, JSON and the manifest file; exit 0', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'renamed-copy')!.build(base);
    const text = await run(['analyze', p.origin.dir, p.target.dir]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^HEAVILY_DERIVED, confidence (HIGH|MEDIUM): the target derives from the origin\n/);
    expect(text.out).toMatch(/\n {6}origin src\/\S+:\d+-\d+\n {6}target src\/\S+:\d+-\d+\n/);
    const mf = join(base, 'manifest.json');
    const json = await run(['analyze', p.origin.dir, p.target.dir, '--json', '--manifest', mf, '--origin-ref', p.origin.commit]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as { verdict: string; manifestHash: string };
    expect(parsed.verdict).toBe('HEAVILY_DERIVED');
    expect(manifestHash(readFileSync(mf))).toBe(parsed.manifestHash);
  });

  it('every --json line validates against the JSON Schema the package ships: analyze, verify, and an error', async () => {
    const schema = JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'cli-output.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true }).compile(schema);
    const p = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(join(base, 'json-schema'));
    const mfile = join(base, 'json-schema', 'manifest.json');
    const lines = [
      (await run(['analyze', p.origin.dir, p.target.dir, '--json', '--manifest', mfile])).out,
      (await run(['verify', mfile, p.origin.dir, p.target.dir, '--json'])).out,
      (await run(['analyze', p.origin.dir, p.target.dir, '--json', '--origin-ref', 'f'.repeat(40)])).out,
    ];
    for (const line of lines) {
      expect(line.endsWith('\n') && line.indexOf('\n') === line.length - 1).toBe(true);
      const ok = validate(JSON.parse(line));
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    }
    // and it is not a schema that takes anything
    expect(validate({ verdict: 'DERIVED' })).toBe(false);
  });

  it('exit 2 on usage errors, 4 on an unknown commit, 5 on a refused URL', async () => {
    expect((await run(['analyze', 'only-one'])).code).toBe(2);
    expect((await run(['analyze', 'a', 'b', '--bogus'])).code).toBe(2);
    const p = await SCENARIOS.find((s) => s.name === 'tiny')!.build(base);
    expect((await run(['analyze', p.origin.dir, p.target.dir, '--origin-ref', 'f'.repeat(40)])).code).toBe(4);
    expect((await run(['analyze', 'file:///etc', p.target.dir])).code).toBe(5);
    expect((await run(['analyze', 'https://user:pw@github.com/a/b', p.target.dir])).code).toBe(5);
    expect((await run(['analyze', 'https://127.0.0.1/a/b', p.target.dir])).code).toBe(5);
  });

  it('a local path that does not exist, or is not a repository, is REPOSITORY_NOT_FOUND naming the side (exit 4)', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'tiny')!.build(base);
    const missing = await run(['analyze', join(base, 'no-such-dir'), p.target.dir]);
    expect(missing.code).toBe(4);
    expect(missing.err).toContain('REPOSITORY_NOT_FOUND (origin): the origin path does not exist');
    const notRepo = await run(['analyze', p.origin.dir, base, '--json']);
    expect(notRepo.code).toBe(4);
    expect(JSON.parse(notRepo.out)).toEqual({
      error: { code: 'REPOSITORY_NOT_FOUND', message: 'the target path is not a git repository', side: 'target' },
    });
  });
});

describe('the human report', () => {
  it('says the fork point, the deciding signals and dates in ISO 8601, never raw Unix seconds', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(base);
    const r = await run(['analyze', p.origin.dir, p.target.dir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^DECLARED_FORK, confidence HIGH: the target derives from the origin\n/);
    expect(r.out).toMatch(/Fork point: [0-9a-f]{12}, 2020-10-03T12:26:40Z\./);
    expect(r.out).toContain('After it: the origin made 1 commit, the target 1 commit.');
    expect(r.out).toContain('The origin is the original.');
    expect(r.out).toMatch(/What decided it:\n {4}- (IDENTITY|DECLARATION) /);
    expect(r.out).toContain('DECLARATION (a declaration of descent), for the origin as original');
    expect(r.out).toMatch(/first appearance origin 2020-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    expect(r.out).not.toMatch(/\b1[5-7]\d{8}\b/); // no Unix seconds anywhere
    expect(r.out).toContain('Skipped (0)');
    expect(r.out).toMatch(/Manifest hash: 0x[0-9a-f]{64} {2}\(lineage-engine\//);
  });

  it('lists what was skipped and why, and shows hostile names as escaped text', async () => {
    const o = join(base, 'hostile-o.git');
    const t = join(base, 'hostile-t.git');
    const files = {
      'src/lib.js': 'export function f(a) { return a + 1; }\n',
      link: { symlink: '/etc/passwd' },
      'evil\x1b[2J\x07.js': 'x\n',
    };
    const oc = buildRepo(o, { commits: [{ time: 1_600_000_000, message: 'o', files }] });
    const tc = buildRepo(t, { commits: [{ time: 1_600_100_000, message: 't', files }] });
    const r = await run(['analyze', o, t, '--origin-ref', oc, '--target-ref', tc]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('origin: 1 item SYMLINK: symbolic link, never followed');
    expect(r.out).toContain('target: 1 item UNSAFE_PATH: unsafe path');
    expect(r.out).toContain('    origin link: SYMLINK');
    // the engine records an unsafe path with its control characters written out; the report shows that text
    expect(r.out).toContain('    origin evil\\x1b[2J\\x07.js: UNSAFE_PATH');
    // eslint-disable-next-line no-control-regex
    expect(r.out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });
});

describe('--origin-url, --target-url and lineage verify', () => {
  let p: Awaited<ReturnType<(typeof SCENARIOS)[number]['build']>>;
  const mf = () => join(base, 'verify-manifest.json');
  beforeAll(async () => {
    p = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(join(base, 'verify'));
  });

  it('records the public URLs given for local clones, and refuses ones with credentials (exit 2)', async () => {
    const r = await run([
      'analyze',
      p.origin.dir,
      p.target.dir,
      '--origin-url',
      'https://github.com/acme/lattice-core',
      '--target-url',
      'https://github.com/fork/lattice-plus',
      '--json',
      '--manifest',
      mf(),
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).manifest.pair).toEqual({
      origin: { url: 'https://github.com/acme/lattice-core', commit: p.origin.commit },
      target: { url: 'https://github.com/fork/lattice-plus', commit: p.target.commit },
    });
    const bad = await run(['analyze', p.origin.dir, p.target.dir, '--origin-url', 'https://u:secret@github.com/a/b']);
    expect(bad.code).toBe(2);
    expect(bad.err).not.toContain('secret');
  });

  it('says identical for the same manifest, even pretty-printed, and exit 0', async () => {
    const same = await run(['verify', mf(), p.origin.dir, p.target.dir]);
    expect(same.code).toBe(0);
    expect(same.out).toBe(`identical: the recomputed manifest hashes to ${manifestHash(readFileSync(mf()))}\n`);
    const pretty = join(base, 'pretty.json');
    writeFileSync(pretty, JSON.stringify(JSON.parse(readFileSync(mf(), 'utf8')), null, 2));
    const again = await run(['verify', pretty, p.origin.dir, p.target.dir]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('was not in canonical form');
  });

  it('shows the first difference of a tampered manifest, exit 6', async () => {
    const m = JSON.parse(readFileSync(mf(), 'utf8'));
    m.confidence = 'LOW';
    m.evidence[2].detail = 'forged';
    const forged = join(base, 'forged.json');
    writeFileSync(forged, JSON.stringify(m));
    const r = await run(['verify', forged, p.origin.dir, p.target.dir]);
    expect(r.code).toBe(6);
    expect(r.out).toContain('first difference at $.confidence\n    given:      "LOW"\n    recomputed: "HIGH"');
    const json = await run(['verify', forged, p.origin.dir, p.target.dir, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ identical: false, difference: { path: '$.confidence' } });
  });

  it('reads the manifest from a case URL of an API (case -> analysis -> manifest)', async () => {
    const bytes = readFileSync(mf());
    const seen: string[] = [];
    const api = createServer((req, res) => {
      seen.push(req.url!);
      if (req.url === '/api/v1/cases/7') return res.end(JSON.stringify({ case: { id: '7', analysisId: '3' } }));
      if (req.url === '/api/v1/analyses/3/manifest') return res.end(bytes);
      res.statusCode = 404;
      res.end('{}');
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1`;
      const r = await run(['verify', `${url}/cases/7`, p.origin.dir, p.target.dir]);
      expect(r.code).toBe(0);
      expect(r.out).toContain('identical');
      expect(seen).toEqual(['/api/v1/cases/7', '/api/v1/analyses/3/manifest']);
      const missing = await run(['verify', `${url}/cases/8`, p.origin.dir, p.target.dir]);
      expect(missing.code).toBe(4);
      const notCase = await run(['verify', `${url}/facts/1`, p.origin.dir, p.target.dir]);
      expect(notCase.code).toBe(5);
    } finally {
      api.close();
    }
  });

  it('a file that is not a manifest is refused (exit 5), an analyze-only option is a usage error (exit 2)', async () => {
    const junk = join(base, 'junk.json');
    writeFileSync(junk, '{"hello":1}');
    const r = await run(['verify', junk, p.origin.dir, p.target.dir]);
    expect(r.code).toBe(5);
    expect(r.err).toContain('not a Lineage manifest');
    expect((await run(['verify', mf(), p.origin.dir, p.target.dir, '--origin-ref', 'HEAD'])).code).toBe(2);
  });
});

describe('progress on stderr', () => {
  const BIN = join(__dirname, '..', 'bin', 'lineage.js');
  let p: Awaited<ReturnType<(typeof SCENARIOS)[number]['build']>>;
  beforeAll(async () => {
    p = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(join(base, 'progress'));
  });

  it('without a terminal: no bar and no control characters at all', () => {
    const r = spawnSync(process.execPath, [BIN, 'analyze', p.origin.dir, p.target.dir], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('a reader that closes the pipe early ends the command quietly, exit 0', () => {
    // `true` exits at once: every write of the report then meets a closed pipe (EPIPE).
    for (const json of [[], ['--json']]) {
      const cmd = [process.execPath, BIN, 'analyze', p.origin.dir, p.target.dir, ...json].map((a) => `'${a}'`).join(' ');
      const r = spawnSync('bash', ['-c', `${cmd} | true; echo "exit \${PIPESTATUS[0]}"`], { encoding: 'utf8' });
      expect(r.stdout).toBe('exit 0\n');
      expect(r.stderr).toBe('');
    }
  });

  it('under a pseudo-terminal: one redrawn line with real counts, cleared before the report', () => {
    // util-linux `script` gives the command a pty; its output is what a terminal would show.
    const cmd = [process.execPath, BIN, 'analyze', p.origin.dir, p.target.dir].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '120' } });
    expect(r.status).toBe(0);
    /* eslint-disable no-control-regex */
    expect(r.stdout).toMatch(/\rinventory +\[#+\] \d+\/\d+ files \((origin|target)\)\x1b\[K/);
    expect(r.stdout).toMatch(/\rhistory +\[#{24}\] 4\/4 commits \((origin|target)\)\x1b\[K/);
    expect(r.stdout).toMatch(/\r\x1b\[K(\r\n)?DECLARED_FORK, confidence HIGH/);
    /* eslint-enable no-control-regex */
  });

  it('under a pseudo-terminal with --quiet, or TERM=dumb: no progress line at all; --quiet prints the verdict and the hash', () => {
    for (const [extra, env] of [
      [['--quiet'], {}],
      [[], { TERM: 'dumb' }],
    ] as const) {
      const cmd = [process.execPath, BIN, 'analyze', p.origin.dir, p.target.dir, ...extra].map((a) => `'${a}'`).join(' ');
      const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status).toBe(0);
      // eslint-disable-next-line no-control-regex
      expect(r.stdout).not.toMatch(/\x1b|\rinventory/);
      if (extra.length) expect(r.stdout).toMatch(/^DECLARED_FORK, confidence HIGH: .*\r\nmanifest 0x[0-9a-f]{64}\r\n$/);
      else expect(r.stdout).toContain('How the histories relate');
    }
  });
});

describe('the `lineage` command (bin/lineage.js, what npm links)', () => {
  const BIN = join(__dirname, '..', 'bin', 'lineage.js');
  const npmBin = (args: string[], bin = BIN) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

  it('is what the package links, so it exists before any build', () => {
    expect(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).bin).toEqual({ lineage: 'bin/lineage.js' });
  });

  it('--version and --help exit 0 and say what they should', () => {
    const v = npmBin(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^lineage-engine\/\d+\.\d+\.\d+ \(manifest version \d+\)\n$/);
    const h = npmBin(['--help']);
    expect(h.status).toBe(0);
    expect(h.stdout).toContain('usage: lineage analyze');
    expect(h.stdout).toContain('exit codes:');
    const none = npmBin([]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('usage: lineage analyze');
  });

  it('every command answers --help and -h with its own help, exit 0; `help <command>` too', () => {
    for (const [args, usage] of [
      [['analyze', '--help'], 'usage: lineage analyze'],
      [['analyze', 'x', '-h'], 'usage: lineage analyze'],
      [['verify', '--help'], 'usage: lineage verify'],
      [['verify', '-h'], 'usage: lineage verify'],
      [['help', 'verify'], 'usage: lineage verify'],
    ] as const) {
      const r = npmBin([...args]);
      expect(r.status).toBe(0);
      expect(r.stdout.startsWith(usage)).toBe(true);
      expect(r.stdout).toContain('exit codes:');
      expect(r.stderr).toBe('');
    }
    expect(npmBin(['verify', '--help']).stdout).not.toContain('--origin-ref');
  });

  it('a mistyped option or command names itself and the closest one, exit 2', () => {
    const o = npmBin(['analyze', 'a', 'b', '--jsn']);
    expect(o.status).toBe(2);
    expect(o.stderr).toMatch(/^unknown option --jsn \(did you mean --json\?\)\nusage: lineage analyze/);
    const far = npmBin(['verify', 'm', 'a', 'b', '--frobnicate']);
    expect(far.stderr).toMatch(/^unknown option --frobnicate\n/);
    const c = npmBin(['analyse', 'a', 'b']);
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/^unknown command analyse \(did you mean analyze\?\)\n/);
  });

  it('without a build it says to run make build, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lineage-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'lineage.js'));
      const r = npmBin(['--version'], join(dir, 'bin', 'lineage.js'));
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('run `make build`');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
