import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface AnvilOptions {
  /** Anvil's --slots-in-an-epoch; 1 makes the `finalized` block trail the head by two. */
  slotsInAnEpoch?: number;
  /** Seconds between blocks; omitted = mine one block per transaction. */
  blockTime?: number;
  /** Chain id; default 31337. */
  chainId?: number;
  /** How long to wait for the node to answer; default 15 s. */
  startTimeoutMs?: number;
}

export interface AnvilHandle {
  rpcUrl: string;
  chainId: number;
  pid: number;
  stop(): Promise<void>;
}

/** The anvil binary shipped by @foundry-rs/anvil (platform package first, then the npm bin wrapper). */
export function anvilBinary(): string {
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    return require.resolve(`${platformPackage}/bin/anvil`);
  } catch {
    // fall through to the wrapper, which finds the binary itself
  }
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'node_modules', '.bin', 'anvil');
    if (existsSync(candidate)) return candidate;
    const parent = join(dir, '..');
    if (parent === dir) throw new Error('anvil not found: install @foundry-rs/anvil');
    dir = parent;
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function startOnce(options: AnvilOptions): Promise<AnvilHandle> {
  const chainId = options.chainId ?? 31337;
  const port = await freeLoopbackPort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
  if (options.slotsInAnEpoch !== undefined) args.push('--slots-in-an-epoch', String(options.slotsInAnEpoch));
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));

  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  // Never leave an anvil behind if the parent exits without calling stop().
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);

  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.removeListener('exit', onExit);
    await stopChild(child);
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`anvil exited before answering: ${stderr.trim().slice(0, 500)}`);
    }
    if (await answers(rpcUrl)) return { rpcUrl, chainId, pid: child.pid ?? -1, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`anvil did not answer on ${rpcUrl} in time`);
}

/**
 * Starts anvil on a free loopback port and resolves once it answers JSON-RPC.
 * Retries twice in case another process takes the port between probe and bind.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilHandle> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
