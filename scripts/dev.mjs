#!/usr/bin/env node
// `make dev`: anvil, the registry, migrations, and the five services as separate
// processes on local defaults, on loopback. Works without a TTY; Ctrl-C / SIGTERM
// stops all. A process that dies is restarted with backoff and the rest keep
// running (a fresh chain gets the registry again; the indexer starts over).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The platform binary itself, not npm's bin wrapper: killing the wrapper would leave the chain running.
const { anvilBinary } = createRequire(import.meta.url)(join(root, 'libs', 'registry', 'dist', 'index.js'));
const env = {
  ...process.env,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lineage',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  REPO_CACHE_DIR: process.env.REPO_CACHE_DIR ?? join(root, '.dev', 'repos'),
  // The dev stack also accepts the demo's local git server (make demo); set these to point elsewhere.
  LINEAGE_REPO_ALLOWED_HOSTS:
    process.env.LINEAGE_REPO_ALLOWED_HOSTS ?? 'github.com,gitlab.com,codeberg.org,bitbucket.org,http://127.0.0.1:8090',
  LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: process.env.LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES ?? 'true',
  HTTP_HOST: process.env.HTTP_HOST ?? '127.0.0.1',
};
// Where the services are probed and announced: the listen address, or loopback when it is every interface.
const probeHost = ['0.0.0.0', '::'].includes(env.HTTP_HOST) ? '127.0.0.1' : env.HTTP_HOST;
const rpcPort = Number(process.env.ANVIL_PORT ?? 8545);
// LINEAGE_DEV_PORT_BASE moves the five ports together (tests run a second stack beside the first).
const portBase = Number(process.env.LINEAGE_DEV_PORT_BASE ?? 8080);
const services = [
  { name: 'gateway', port: portBase },
  { name: 'analysis-pipeline', port: portBase + 1, migrate: true },
  { name: 'case-store', port: portBase + 2, migrate: true },
  { name: 'fact-indexer', port: portBase + 3, migrate: true },
  { name: 'chain-reader', port: portBase + 4 },
];
/** name → { child, spec, restarts, startedAt } */
const children = new Map();
let stopping = false;
/** Backoff after a crash: 1 s doubling to 30 s; a process that ran a minute starts again from 1 s. */
const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000];
const STABLE_MS = 60_000;

const log = (msg) => process.stdout.write(`[dev] ${msg}\n`);
const portOpen = (port) =>
  new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start(name, cmd, args, extraEnv = {}, afterRestart = async () => {}) {
  const entry = children.get(name) ?? { restarts: 0, spec: { cmd, args, extraEnv, afterRestart } };
  const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  Object.assign(entry, { child, startedAt: Date.now() });
  children.set(name, entry);
  log(`${name} started (pid ${child.pid})`);
  const prefix = (stream, out) => {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        out.write(`[${name}] ${buf.slice(0, i)}\n`);
        buf = buf.slice(i + 1);
      }
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    if (Date.now() - entry.startedAt >= STABLE_MS) entry.restarts = 0;
    const delay = BACKOFF_MS[Math.min(entry.restarts, BACKOFF_MS.length - 1)];
    entry.restarts += 1;
    log(`${name} exited (${signal ?? code}); restarting in ${delay / 1000} s (restart ${entry.restarts}); the rest keep running`);
    setTimeout(() => {
      if (stopping) return;
      start(name, cmd, args, extraEnv, afterRestart);
      afterRestart().catch((err) => log(`${name}: after restart: ${err.message}`));
    }, delay);
  });
  return child;
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  const all = [...children.values()].map((e) => e.child);
  for (const child of all) if (child.exitCode === null) child.kill('SIGTERM');
  const deadline = Date.now() + 30_000;
  while (all.some((child) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) await sleep(100);
  for (const child of all) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

// Generous: five services start at once on two cores, beside whatever else the machine runs.
async function waitReady(port, name, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`http://${probeHost}:${port}/ready`);
      if (r.status === 200) return;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error(`${name} did not become ready on port ${port}`);
}

async function waitPort(port) {
  for (let i = 0; i < 100 && !(await portOpen(port)); i++) await sleep(100);
}

/** Deploy the registry on a fresh dev chain (anvil's well-known development key; dev only). */
function deploy(rpcUrl) {
  const deployCli = join(root, 'libs', 'registry', 'dist', 'cli', 'deploy-dev.js');
  if (!existsSync(deployCli)) return null;
  const out = spawnSync(process.execPath, [deployCli, '--rpc', rpcUrl], { cwd: root, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`registry deployment failed: ${out.stderr}`);
  const info = JSON.parse(out.stdout.trim().split('\n').pop());
  log(`registry deployed at ${info.address} (block ${info.deployedBlock}, chain ${info.chainId})`);
  return info;
}

async function main() {
  mkdirSync(env.REPO_CACHE_DIR, { recursive: true });
  // anvil: a real local chain; the finalized block trails the head by two.
  let rpcUrl = process.env.RPC_URL;
  if (!rpcUrl) {
    rpcUrl = `http://127.0.0.1:${rpcPort}`;
    if (await portOpen(rpcPort)) log(`reusing the chain already on ${rpcUrl}`);
    else {
      // A restarted anvil is a fresh chain: the registry is deployed again (the same address: the same
      // deployer and nonce), and the fact-indexer sees a different chain and starts over.
      start(
        'anvil',
        anvilBinary(),
        ['--host', '127.0.0.1', '--port', String(rpcPort), '--slots-in-an-epoch', '1', '--block-time', '1', '--silent'],
        {},
        async () => {
          await waitPort(rpcPort);
          deploy(rpcUrl);
        },
      );
      await waitPort(rpcPort);
    }
  }
  const chainEnv = { RPC_URL: rpcUrl };
  if (process.env.REGISTRY_ADDRESS) chainEnv.REGISTRY_ADDRESS = process.env.REGISTRY_ADDRESS;
  else {
    const info = deploy(rpcUrl);
    if (info)
      Object.assign(chainEnv, {
        REGISTRY_ADDRESS: info.address,
        REGISTRY_DEPLOYED_BLOCK: String(info.deployedBlock),
        CHAIN_ID: String(info.chainId),
      });
  }
  for (const s of services.filter((x) => x.migrate)) {
    const out = spawnSync(process.execPath, [join('services', s.name, 'dist', 'migrate.js')], { cwd: root, env, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${s.name} migrations failed: ${out.stderr || out.stdout}`);
  }
  log('migrations applied');
  for (const s of services) {
    start(s.name, process.execPath, [join('services', s.name, 'dist', 'main.js')], {
      HTTP_PORT: String(s.port),
      ...(s.name === 'chain-reader' ? chainEnv : {}),
      // make dev starts a fresh anvil but keeps the database: let the indexer start over (never in production).
      ...(s.name === 'fact-indexer' ? { INDEXER_RESET_ON_CHAIN_CHANGE: 'true' } : {}),
      ...(s.name === 'gateway' ? { RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED ?? 'true' } : {}),
    });
  }
  await Promise.all(services.map((s) => waitReady(s.port, s.name)));
  log('all services ready');
  const host = probeHost;
  log(`  API        http://${host}:${portBase}/api/v1   (OpenAPI: http://${host}:${portBase}/api/v1/openapi.json)`);
  log(`  Pages      http://${host}:${portBase}/   (cases: http://${host}:${portBase}/cases)`);
  for (const s of services) log(`  ${s.name.padEnd(18)} http://${host}:${s.port}/health  /ready  /metrics`);
  log(`  chain      ${rpcUrl}${chainEnv.REGISTRY_ADDRESS ? `  registry ${chainEnv.REGISTRY_ADDRESS}` : ''}`);
  log('Ctrl-C stops everything.');
}

main().catch((err) => {
  log(`failed: ${err.message}`);
  void stop(1);
});
