// fact-indexer benchmark: backfill throughput and projection lag under steady load.
// Rerun: see bench/indexer/README.md. Real anvil, NATS, PostgreSQL; chain-reader
// and fact-indexer run as their built processes (services/*/dist).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { deployDev, devAccount, registryAbi, startAnvil, type AnvilHandle } from '@lineage/registry';
import { encodeFunctionData, keccak256, numberToHex, toHex, type Hex } from 'viem';
import { freePort, freshDatabase, sleep, startNats, startService, waitReady, type Proc } from '../../test/support/processes';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 60);
const TX_PER_SECOND = Number(process.env.BENCH_TPS ?? 20);
const POLL_MS = process.env.BENCH_POLL_MS ?? '100';

async function rpc<T = unknown>(url: string, calls: { method: string; params: unknown[] }[]): Promise<T[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: i, ...c }))),
  });
  const out = (await res.json()) as { id: number; result?: T; error?: { message: string } }[];
  out.sort((a, b) => a.id - b.id);
  for (const o of out) if (o.error) throw new Error(o.error.message);
  return out.map((o) => o.result as T);
}
const one = async <T = unknown>(url: string, method: string, params: unknown[] = []) => (await rpc<T>(url, [{ method, params }]))[0]!;

/** assertFact calldata for a fresh subject (PUBLIC dev account 0 sends; anvil signs for its unlocked dev accounts). */
const assertCall = (i: number, policyBond: bigint, registry: Hex, nonce?: number) => ({
  method: 'eth_sendTransaction',
  params: [
    {
      from: devAccount(0).address,
      to: registry,
      gas: numberToHex(300_000),
      value: numberToHex(policyBond),
      ...(nonce === undefined ? {} : { nonce: numberToHex(nonce) }),
      data: encodeFunctionData({
        abi: registryAbi,
        functionName: 'assertFact',
        args: [1n, keccak256(toHex(`bench-subject-${i}`)), 1, keccak256(toHex(`manifest-${i}`)), 1n],
      }),
    },
  ],
});

async function services(anvil: AnvilHandle, registry: Awaited<ReturnType<typeof deployDev>>, env: Record<string, string> = {}) {
  const nats = await startNats();
  const db = await freshDatabase('lineage_bench_indexer');
  const common = { NATS_URL: nats.url, DATABASE_URL: db.url, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', MIGRATE_ON_START: 'true' };
  const crPort = await freePort();
  const fiPort = await freePort();
  const reader = startService('chain-reader', {
    ...common,
    HTTP_PORT: String(crPort),
    RPC_URL: anvil.rpcUrl,
    REGISTRY_ADDRESS: registry.address,
    REGISTRY_DEPLOYED_BLOCK: String(registry.deployedBlock),
  });
  await waitReady(crPort);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  const started = Date.now();
  const indexer: Proc = startService('fact-indexer', { ...common, HTTP_PORT: String(fiPort), INDEXER_POLL_INTERVAL_MS: POLL_MS, ...env });
  await waitReady(fiPort, 30_000);
  const ready = Date.now();
  const cursor = async () => {
    const r = await pg
      .query('select indexed_block, finalized_block from facts.cursor where id = 1')
      .catch(() => ({ rows: [] as { indexed_block: string; finalized_block: string }[] }));
    return r.rows[0] ? { indexed: BigInt(r.rows[0].indexed_block), finalized: BigInt(r.rows[0].finalized_block) } : null;
  };
  const dump = () => {
    for (const p of [reader, indexer]) process.stderr.write(`--- ${p.name}\n${p.output().slice(-4000)}\n`);
  };
  return {
    started,
    ready,
    cursor,
    pg,
    dump,
    async stop() {
      await pg.end();
      if (process.env.BENCH_LOG_LEVEL)
        process.stderr.write(
          indexer
            .output()
            .split('\n')
            .filter((l) => l.includes('backfilled'))
            .join('\n') + '\n',
        );
      await indexer.stop();
      await reader.stop();
      await nats.stop();
      await db.drop();
    },
  };
}

async function backfill(): Promise<Record<string, string | number>> {
  const anvil = await startAnvil({ slotsInAnEpoch: 1 });
  try {
    const registry = await deployDev(anvil.rpcUrl);
    await one(anvil.rpcUrl, 'evm_setAutomine', [false]);
    await one(anvil.rpcUrl, 'evm_setBlockGasLimit', [numberToHex(600_000_000)]);
    const bond = 10n ** 16n;
    const genStart = Date.now();
    const perBlock = 2000;
    const nonce0 = Number(BigInt(await one<string>(anvil.rpcUrl, 'eth_getTransactionCount', [devAccount(0).address, 'pending'])));
    for (let i = 0; i < EVENTS; i += perBlock) {
      const calls = [];
      for (let j = i; j < Math.min(EVENTS, i + perBlock); j++) calls.push(assertCall(j, bond, registry.address, nonce0 + j));
      for (let k = 0; k < calls.length; k += 500) await rpc(anvil.rpcUrl, calls.slice(k, k + 500));
      await one(anvil.rpcUrl, 'evm_mine', []);
      process.stderr.write(`generated ${Math.min(EVENTS, i + perBlock)} assertions\n`);
    }
    await one(anvil.rpcUrl, 'evm_setAutomine', [true]);
    await one(anvil.rpcUrl, 'anvil_mine', [numberToHex(3)]);
    const head = BigInt(await one<string>(anvil.rpcUrl, 'eth_blockNumber'));
    const logs = await one<unknown[]>(anvil.rpcUrl, 'eth_getLogs', [{ address: registry.address, fromBlock: '0x0', toBlock: 'latest' }]);
    const genMs = Date.now() - genStart;
    const target = head - 2n; // finalized with --slots-in-an-epoch 1
    process.stderr.write(`chain ready: ${logs.length} events in ${head} blocks; starting chain-reader and fact-indexer\n`);
    const s = await services(anvil, registry);
    let done = 0;
    let last = -1n;
    let lastMove = Date.now();
    for (;;) {
      const c = await s.cursor();
      if (c && c.indexed !== last) {
        last = c.indexed;
        lastMove = Date.now();
      }
      if (Date.now() - lastMove > 60_000) {
        s.dump();
        await s.stop();
        throw new Error('no progress for 60 s');
      }
      if (c && c.indexed >= target && c.finalized >= target) {
        done = Date.now();
        break;
      }
      await sleep(20);
    }
    const ms = done - s.started;
    const readyMs = done - s.ready;
    const facts = Number((await s.pg.query('select count(*) as n from facts.facts')).rows[0].n);
    const events = Number((await s.pg.query('select count(*) as n from facts.events')).rows[0].n);
    await s.stop();
    if (events !== logs.length) throw new Error(`indexed ${events} events, chain has ${logs.length}`);
    return {
      events: logs.length,
      blocks: Number(head),
      facts,
      generateSeconds: (genMs / 1000).toFixed(1),
      indexSeconds: (ms / 1000).toFixed(2),
      eventsPerSecond: Math.round(logs.length / (ms / 1000)),
      readyToDoneSeconds: (readyMs / 1000).toFixed(2),
      eventsPerSecondFromReady: Math.round(logs.length / (readyMs / 1000)),
    };
  } finally {
    await anvil.stop();
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** Steady load: TX_PER_SECOND assertions per second on an automining anvil (one block per transaction). */
async function lag(mode: 'automine' | 'blocktime'): Promise<Record<string, string | number>> {
  const anvil = await startAnvil({ slotsInAnEpoch: 1, ...(mode === 'blocktime' ? { blockTime: 1 } : {}) });
  try {
    const registry = await deployDev(anvil.rpcUrl);
    const s = await services(anvil, registry);
    const bond = 10n ** 16n;
    await sleep(2000);
    const latestLag: number[] = [];
    const finalLag: number[] = [];
    let sent = 0;
    const end = Date.now() + LAG_SECONDS * 1000;
    const t0 = Date.now();
    const sampler = (async () => {
      while (Date.now() < end) {
        const [head, fin] = await rpc<{ number: string }>(anvil.rpcUrl, [
          { method: 'eth_getBlockByNumber', params: ['latest', false] },
          { method: 'eth_getBlockByNumber', params: ['finalized', false] },
        ]);
        const c = await s.cursor();
        if (c) {
          latestLag.push(Math.max(0, Number(BigInt(head!.number) - c.indexed)));
          finalLag.push(Math.max(0, Number(BigInt(fin!.number) - c.finalized)));
        }
        await sleep(50);
      }
    })();
    while (Date.now() < end) {
      const due = Math.floor(((Date.now() - t0) / 1000) * TX_PER_SECOND);
      while (sent < due) {
        await rpc(anvil.rpcUrl, [assertCall(1_000_000 + sent, bond, registry.address)]);
        sent += 1;
      }
      await sleep(5);
    }
    await sampler;
    await s.stop();
    return {
      mode: mode === 'automine' ? 'one block per transaction (20 blocks/s)' : '1 s blocks (~20 tx/block)',
      transactions: sent,
      seconds: LAG_SECONDS,
      samples: latestLag.length,
      latestLagP50: pct(latestLag, 50),
      latestLagP95: pct(latestLag, 95),
      latestLagMax: Math.max(...latestLag),
      canonicalLagP50: pct(finalLag, 50),
      canonicalLagP95: pct(finalLag, 95),
      canonicalLagMax: Math.max(...finalLag),
    };
  } finally {
    await anvil.stop();
  }
}

async function main() {
  const b = await backfill();
  if (process.env.BENCH_ONLY_BACKFILL) return void console.log(JSON.stringify(b));
  console.log(JSON.stringify(b));
  const l1 = await lag('blocktime');
  console.log(JSON.stringify(l1));
  const l2 = await lag('automine');
  console.log(JSON.stringify(l2));
  const lines = [
    `<!-- generated by bench/indexer/run.ts on ${new Date().toISOString()} -->`,
    '',
    '### Backfill',
    '',
    '| registry events | blocks | facts | process spawn → all indexed and finalized (s) | events/s | ready (/ready 200) → done (s) | events/s |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${b.events} | ${b.blocks} | ${b.facts} | ${b.indexSeconds} | ${b.eventsPerSecond} | ${b.readyToDoneSeconds} | ${b.eventsPerSecondFromReady} |`,
    '',
    `### Lag under ${TX_PER_SECOND} transactions/s (poll ${POLL_MS} ms, sampled every 50 ms)`,
    '',
    "| chain | tx sent | samples | latest lag p50 / p95 / max (blocks) | canonical lag behind the chain's finalized block p50 / p95 / max (blocks) |",
    '|---|---:|---:|---:|---:|',
    ...[l1, l2].map(
      (l) =>
        `| ${l.mode} | ${l.transactions} | ${l.samples} | ${l.latestLagP50} / ${l.latestLagP95} / ${l.latestLagMax} | ${l.canonicalLagP50} / ${l.canonicalLagP95} / ${l.canonicalLagMax} |`,
    ),
    '',
  ];
  writeFileSync(join(__dirname, 'results.generated.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
