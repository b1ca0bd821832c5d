#!/usr/bin/env node
// `make dev`: anvil, the registry, migrations, and the five services as separate
// processes on local defaults. Works without a TTY; Ctrl-C / SIGTERM stops all.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = {
  ...process.env,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lineage',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  REPO_CACHE_DIR: process.env.REPO_CACHE_DIR ?? join(root, '.dev', 'repos'),
  // The dev stack also accepts the demo's local git server (make demo); set these to point elsewhere.
  LINEAGE_REPO_ALLOWED_HOSTS: process.env.LINEAGE_REPO_ALLOWED_HOSTS ?? 'github.com,gitlab.com,codeberg.org,bitbucket.org,http://127.0.0.1:8090',
  LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: process.env.LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES ?? 'true',
};
const rpcPort = Number(process.env.ANVIL_PORT ?? 8545);
const services = [
  { name: 'gateway', port: 8080 },
  { name: 'analysis-pipeline', port: 8081, migrate: true },
  { name: 'case-store', port: 8082, migrate: true },
  { name: 'fact-indexer', port: 8083, migrate: true },
  { name: 'chain-reader', port: 8084 },
];
const children = [];
let stopping = false;

const log = (msg) => process.stdout.write(`[dev] ${msg}\n`);
const portOpen = (port) =>
  new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start(name, cmd, args, extraEnv = {}) {
  const child = spawn(cmd, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (stream, out) => {
    let buf = '';
    stream.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) { out.write(`[${name}] ${buf.slice(0, i)}\n`); buf = buf.slice(i + 1); }
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) { log(`${name} exited (${signal ?? code}); stopping the stack`); void stop(1); }
  });
  children.push({ name, child });
  return child;
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
  const deadline = Date.now() + 30_000;
  while (children.some(({ child }) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) await sleep(100);
  for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

async function waitReady(port, name, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/ready`);
      if (r.status === 200) return;
    } catch { /* not up yet */ }
    await sleep(250);
  }
  throw new Error(`${name} did not become ready on port ${port}`);
}

async function main() {
  mkdirSync(env.REPO_CACHE_DIR, { recursive: true });
  // anvil: a real local chain; the finalized block trails the head by two.
  let rpcUrl = process.env.RPC_URL;
  if (!rpcUrl) {
    rpcUrl = `http://127.0.0.1:${rpcPort}`;
    if (await portOpen(rpcPort)) log(`reusing the chain already on ${rpcUrl}`);
    else {
      start('anvil', join(root, 'node_modules', '.bin', 'anvil'), ['--host', '127.0.0.1', '--port', String(rpcPort), '--slots-in-an-epoch', '1', '--block-time', '1', '--silent']);
      for (let i = 0; i < 100 && !(await portOpen(rpcPort)); i++) await sleep(100);
    }
  }
  const chainEnv = { RPC_URL: rpcUrl };
  const deployCli = join(root, 'libs', 'registry', 'dist', 'cli', 'deploy-dev.js');
  if (process.env.REGISTRY_ADDRESS) chainEnv.REGISTRY_ADDRESS = process.env.REGISTRY_ADDRESS;
  else if (existsSync(deployCli)) {
    const out = spawnSync(process.execPath, [deployCli, '--rpc', rpcUrl], { cwd: root, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`registry deployment failed: ${out.stderr}`);
    const info = JSON.parse(out.stdout.trim().split('\n').pop());
    Object.assign(chainEnv, { REGISTRY_ADDRESS: info.address, REGISTRY_DEPLOYED_BLOCK: String(info.deployedBlock), CHAIN_ID: String(info.chainId) });
    log(`registry deployed at ${info.address} (block ${info.deployedBlock}, chain ${info.chainId})`);
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
  log(`  API        http://127.0.0.1:8080/api/v1   (OpenAPI: http://127.0.0.1:8080/api/v1/openapi.json)`);
  for (const s of services) log(`  ${s.name.padEnd(18)} http://127.0.0.1:${s.port}/health  /ready  /metrics`);
  log(`  chain      ${rpcUrl}${chainEnv.REGISTRY_ADDRESS ? `  registry ${chainEnv.REGISTRY_ADDRESS}` : ''}`);
  log('Ctrl-C stops everything.');
}

main().catch((err) => {
  log(`failed: ${err.message}`);
  void stop(1);
});
