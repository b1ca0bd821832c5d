// `make dev`'s own script (scripts/dev.mjs) as a user runs it, on ports of its own beside any other stack:
// it listens on loopback only, a killed service is restarted while the rest keep serving, a killed chain
// comes back with the registry deployed again, and SIGTERM stops everything.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, startNats, startProcess, waitFor, waitReady, type Proc } from '../support/processes';

jest.setTimeout(240_000);

/** A base port with base..base+4 free, and one more for anvil. */
async function freeRange(n: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  for (let tries = 0; tries < 50; tries++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    let ok = true;
    for (let p = base; p < base + n && ok; p++) ok = await free(p);
    if (ok) return base;
  }
  throw new Error('no free port range');
}

/** Local addresses (hex, as /proc/net/tcp writes them) listening on `port`. */
function listenAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A')
    .map((f) => f[1]!.split(':')[0]!);
}

const pids = (out: string, name: string): number[] =>
  [...out.matchAll(new RegExp(`\\[dev\\] ${name} started \\(pid (\\d+)\\)`, 'g'))].map((m) => Number(m[1]));

/** dev.mjs's own lines (what it started, and why it gave up): the services' logs would push them out of a tail. */
const devLines = (out: string): string =>
  out
    .split('\n')
    .filter((l) => l.startsWith('[dev]'))
    .join('\n');

let nats: Awaited<ReturnType<typeof startNats>>;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let dev: Proc;
let base: number;
let cache: string;

beforeAll(async () => {
  nats = await startNats();
  db = await freshDatabase('lineage_devstack');
  base = await freeRange(6);
  cache = mkdtempSync(join(tmpdir(), 'lineage-dev-'));
  dev = startProcess('dev', process.execPath, ['scripts/dev.mjs'], {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    LINEAGE_DEV_PORT_BASE: String(base),
    ANVIL_PORT: String(base + 5),
    REPO_CACHE_DIR: cache,
    HTTP_HOST: undefined,
    RPC_URL: undefined,
    REGISTRY_ADDRESS: undefined,
  });
  await waitFor(
    'the dev stack',
    async () => {
      if (dev.child.exitCode !== null) throw new Error(`dev exited: ${devLines(dev.output())}\n…\n${dev.output().slice(-1000)}`);
      return dev.output().includes('[dev] all services ready');
    },
    150_000,
    250,
  );
});

afterAll(async () => {
  await dev?.stop();
  await nats?.stop();
  await db?.drop();
  if (cache) rmSync(cache, { recursive: true, force: true });
});

describe('make dev (scripts/dev.mjs)', () => {
  it('announces and binds loopback only', () => {
    expect(dev.output()).toContain(`API        http://127.0.0.1:${base}/api/v1`);
    for (let p = base; p < base + 5; p++) expect(listenAddresses(p)).toEqual(['0100007F']);
  });

  it('a killed service is restarted with the rest still serving', async () => {
    const [first] = pids(dev.output(), 'analysis-pipeline');
    expect(first).toBeGreaterThan(0);
    process.kill(first!, 'SIGKILL');
    let gatewayDown = 0;
    const back = await waitFor(
      'the pipeline restarted',
      async () => {
        if (
          (await fetch(`http://127.0.0.1:${base}/health`).then(
            (r) => r.status,
            () => 0,
          )) !== 200
        )
          gatewayDown++;
        const now = pids(dev.output(), 'analysis-pipeline');
        return now.length === 2 && now[1];
      },
      30_000,
      200,
    );
    expect(back).not.toBe(first);
    expect(dev.output()).toMatch(/\[dev\] analysis-pipeline exited \(SIGKILL\); restarting in 1 s \(restart 1\)/);
    await waitReady(base + 1, 60_000);
    expect(gatewayDown).toBe(0);
    expect(dev.child.exitCode).toBeNull();
  });

  it('a killed chain comes back as a fresh chain with the registry deployed again, and the indexer follows it', async () => {
    const [anvil] = pids(dev.output(), 'anvil');
    expect(anvil).toBeGreaterThan(0);
    const deployedBefore = (dev.output().match(/\[dev\] registry deployed at/g) ?? []).length;
    process.kill(anvil!, 'SIGKILL');
    await waitFor(
      'the registry deployed again',
      async () => (dev.output().match(/\[dev\] registry deployed at/g) ?? []).length === deployedBefore + 1,
      60_000,
      200,
    );
    expect(pids(dev.output(), 'anvil')).toHaveLength(2);
    // The indexer's projection came from the old chain: it must start over and follow the new one, never halt.
    const states = new Set<string>();
    await waitFor(
      'the indexer following the new chain',
      async () => {
        const p = await fetch(`http://127.0.0.1:${base}/api/v1/protocol`).then(
          (r) => (r.ok ? r.json() : null),
          () => null,
        );
        const state = (p as { indexer?: { state?: string } } | null)?.indexer?.state;
        if (state) states.add(state);
        return state === 'following';
      },
      90_000,
      250,
    );
    expect(states).not.toContain('halted');
    expect(dev.output()).not.toMatch(/INDEXER HALTED/);
  });

  it('SIGTERM stops every process and frees every port', async () => {
    const all = ['gateway', 'analysis-pipeline', 'case-store', 'fact-indexer', 'chain-reader', 'anvil'].map((n) =>
      pids(dev.output(), n).pop()!,
    );
    expect(await dev.stop('SIGTERM')).toBe(0);
    for (const pid of all) expect(() => process.kill(pid, 0)).toThrow();
    for (let p = base; p < base + 6; p++) expect(listenAddresses(p)).toEqual([]);
  });
});
