// Writer lease: two fact-indexer replicas on one database; killing the writer
// hands the lease to the other, and indexing continues without gaps or duplicates.
import { assertDev, lineageFactKey, type AnvilHandle } from '@lineage/registry';
import { createTestClient, http, type Hex } from 'viem';
import type { Stack } from '../support/stack';
import {
  chainActivity as chainActivityOf,
  projectedActivity as projectedActivityOf,
  startChainStack,
  type ChainStack,
} from '../support/chain-stack';
import { freePort, startService, waitFor, waitReady, type Proc } from '../support/processes';
import { json } from '../support/http';

let chain: ChainStack;
let anvil: AnvilHandle;
let stack: Stack;
let registry: ChainStack['registry'];
const replicas: { proc: Proc; port: number }[] = [];
const indexerEnv = { INDEXER_POLL_INTERVAL_MS: '100' };

async function startReplica(): Promise<{ proc: Proc; port: number }> {
  const port = await freePort();
  const proc = startService('fact-indexer', { ...stack.env, ...indexerEnv, HTTP_PORT: String(port) });
  await waitReady(port);
  const r = { proc, port };
  replicas.push(r);
  return r;
}

beforeAll(async () => {
  chain = await startChainStack({ 'fact-indexer': indexerEnv });
  ({ anvil, stack, registry } = chain);
  replicas.push({ proc: stack.procs['fact-indexer'], port: stack.ports['fact-indexer'] });
}, 120_000);
afterAll(async () => {
  for (const r of replicas.slice(1)) await r.proc.stop();
  await chain?.stop();
}, 60_000);

const get = (path: string) => fetch(`${stack.api}${path}`);
const body = async (path: string) => json(await get(path));
const pair = (n: number) => ({
  originUrl: `https://github.com/example/origin-${n}`,
  originCommit: n.toString(16).padStart(40, 'c'),
  targetUrl: `https://github.com/example/target-${n}`,
  targetCommit: n.toString(16).padStart(40, 'd'),
});
const manifest = (n: number): Hex => `0x${(n % 256).toString(16).padStart(2, '0').repeat(32)}`;
const assertPair = (n: number) =>
  assertDev({ rpcUrl: anvil.rpcUrl, address: registry.address, pair: pair(n), outcome: 'TRUE', manifestHash: manifest(n) });

async function isWriter(port: number): Promise<boolean | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const m = /^lineage_indexer_is_writer\{[^}]*\} (\d)/m.exec(text);
    return m ? m[1] === '1' : false;
  } catch {
    return null;
  }
}

const chainActivity = () => chainActivityOf(chain);
const projectedActivity = () => projectedActivityOf(chain);
const caughtUp = () =>
  waitFor(
    'activity equals the chain',
    async () => {
      const [a, b] = await Promise.all([projectedActivity(), chainActivity()]);
      return JSON.stringify(a) === JSON.stringify(b) ? a : false;
    },
    30_000,
    200,
  );

it('exactly one replica writes; killing it hands the lease over and indexing continues without gaps or duplicates', async () => {
  const second = await startReplica();
  const first = replicas[0]!;
  const writers = await waitFor('one writer', async () => {
    const w = await Promise.all([isWriter(first.port), isWriter(second.port)]);
    return w.filter((x) => x === true).length === 1 ? w : false;
  });
  const [writer, standby] = writers[0] ? [first, second] : [second, first];

  for (let n = 1; n <= 8; n++) await assertPair(n);
  await caughtUp();

  // Kill the writer hard, mid-stream: assertions keep coming while the lease changes hands.
  writer.proc.child.kill('SIGKILL');
  for (let n = 9; n <= 16; n++) await assertPair(n);
  await waitFor('standby takes over', async () => (await isWriter(standby.port)) === true, 20_000);
  await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).mine({ blocks: 3 });
  const ids = await caughtUp();
  expect(new Set(ids).size).toBe(ids.length);
  const facts = await body('/facts?limit=100');
  expect(facts.items).toHaveLength(16);
  for (let n = 1; n <= 16; n++) {
    const key = lineageFactKey(registry.templateId, pair(n)).toString();
    await waitFor(`fact ${n} matches the chain`, async () => (await body(`/facts/${key}?source=chain`)).matches === true);
  }

  // A restarted replica resumes as a standby; a graceful stop of the writer hands it the lease at once.
  const third = await startReplica();
  expect(await isWriter(third.port)).toBe(false);
  await standby.proc.stop('SIGTERM');
  await waitFor('restarted replica takes over', async () => (await isWriter(third.port)) === true, 20_000);
  for (let n = 17; n <= 20; n++) await assertPair(n);
  const after = await caughtUp();
  expect(new Set(after).size).toBe(after.length);
  expect(third.proc.output()).not.toMatch(/HALTED/);
});
