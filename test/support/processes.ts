// Real processes for integration and end-to-end tests: a private nats-server
// (JetStream on, its own port and store) and the services themselves.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export interface Proc {
  name: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startProcess(name: string, cmd: string, args: string[], env: Record<string, string | undefined> = {}): Proc {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A nats-server of our own on a free port, so tests never share subjects with a running dev stack. */
export async function startNats(port?: number): Promise<Proc & { url: string; port: number; storeDir: string }> {
  const p = port ?? (await freePort());
  const storeDir = mkdtempSync(join(tmpdir(), 'lineage-nats-'));
  const bin = process.env.NATS_SERVER_BIN ?? 'nats-server';
  const proc = startProcess('nats', bin, ['-a', '127.0.0.1', '-p', String(p), '-js', '-sd', storeDir]);
  await waitFor('nats-server', async () => /Server is ready/.test(proc.output()), 15_000, 50);
  const stop = proc.stop;
  return {
    ...proc,
    url: `nats://127.0.0.1:${p}`,
    port: p,
    storeDir,
    stop: async (signal) => {
      const code = await stop(signal);
      rmSync(storeDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A fresh database for one test file, dropped afterwards. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = await import('pg');
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`.toLowerCase();
  const admin = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    async drop() {
      const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const SERVICES = ['gateway', 'analysis-pipeline', 'case-store', 'fact-indexer', 'chain-reader'] as const;
export type ServiceName = (typeof SERVICES)[number];

export function startService(name: ServiceName, env: Record<string, string | undefined>): Proc {
  return startProcess(name, process.execPath, [join('services', name, 'dist', 'main.js')], env);
}

export async function waitReady(port: number, timeoutMs = 30_000): Promise<void> {
  await waitFor(`ready on ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200, timeoutMs);
}
