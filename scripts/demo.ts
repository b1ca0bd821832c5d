// `make demo` (against a running `make dev`): the whole flow in a minute. Two
// fixture repositories served by a local git server are validated and analysed;
// the case's fact is asserted on the local chain with anvil's public development
// account 0 (a well-known test key, never for real use); the URLs of the case,
// its evidence and its fact are printed.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertDev, lineageFactKey } from '@lineage/registry';
import { SCENARIOS } from '../test/fixtures/scenarios';
import { startGitServer } from '../test/support/git-http';

const API = process.env.LINEAGE_API ?? 'http://127.0.0.1:8080/api/v1';
const RPC = process.env.RPC_URL ?? 'http://127.0.0.1:8545';
const GIT_PORT = Number(process.env.DEMO_GIT_PORT ?? 8090);
const ROOT = join(__dirname, '..', '.dev', 'demo-repos');

const say = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json: any = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${json.error?.code} ${json.error?.message}`);
  return json;
}

async function main(): Promise<void> {
  try {
    await call('GET', '/cases?limit=1');
  } catch {
    say(`No Lineage API answers at ${API}. Start the stack first: make dev (in another terminal).`);
    process.exit(2);
  }
  const scenario = SCENARIOS.find((s) => s.name === 'renamed-copy')!;
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
  await scenario.build(ROOT);
  const git = await startGitServer(ROOT, GIT_PORT);
  try {
    say(`1. Fixture "${scenario.name}": ${scenario.why}`);
    say(`   served at ${git.url}/${scenario.name}/{origin,target}.git`);
    const { pair } = await call('POST', '/repositories/validate', {
      origin: { url: `${git.url}/${scenario.name}/origin.git` },
      target: { url: `${git.url}/${scenario.name}/target.git` },
    });
    say(`2. Pinned: origin ${pair.origin.commit.slice(0, 12)}, target ${pair.target.commit.slice(0, 12)}`);
    const created = await call('POST', '/analyses', {
      pair: { origin: { url: pair.origin.url, commit: pair.origin.commit }, target: { url: pair.target.url, commit: pair.target.commit } },
    });
    const id = created.analysis.id;
    say(`3. Analysis ${id} ${created.created ? 'queued' : 'already exists for this pinned pair (reused)'}; progress:`);
    let analysis = created.analysis;
    let shown = '';
    while (analysis.state !== 'completed' || !analysis.caseId) {
      if (analysis.state === 'failed' || analysis.state === 'cancelled')
        throw new Error(`analysis ${analysis.state}: ${JSON.stringify(analysis.error)}`);
      const line = analysis.stages
        .map((s: { name: string; state: string; done: number | null; total: number | null; unit: string | null }) =>
          s.state === 'done' ? `${s.name}✓` : s.state === 'running' ? `${s.name}(${s.done ?? 0}/${s.total ?? '?'} ${s.unit ?? ''})` : '',
        )
        .filter(Boolean)
        .join(' ');
      if (line !== shown) say(`   ${line}`);
      shown = line;
      await sleep(250);
      analysis = (await call('GET', `/analyses/${id}`)).analysis;
    }
    const report = (await call('GET', `/cases/${analysis.caseId}`)).case;
    say(`4. Case ${report.id}: ${report.verdict}, confidence ${report.confidence}, direction ${report.direction}`);
    say(`   ${report.summary}`);

    const contract = await call('GET', '/chain/contract');
    if (contract.status !== 'live') throw new Error('the registry is not live; is make dev running with its chain?');
    const outcome = ['LIKELY_DERIVED', 'HEAVILY_DERIVED', 'DECLARED_FORK'].includes(report.verdict)
      ? 'TRUE'
      : report.verdict === 'INSUFFICIENT_EVIDENCE'
        ? 'UNDETERMINED'
        : 'FALSE';
    const subject = {
      originUrl: report.pair.origin.url,
      originCommit: report.pair.origin.commit,
      targetUrl: report.pair.target.url,
      targetCommit: report.pair.target.commit,
    };
    // A second `make demo` against the same stack finds its fact asserted already (the registry would refuse it).
    const key = lineageFactKey(1n, subject).toString();
    const known = await fetch(`${API}/facts/${key}`);
    const latest =
      known.status === 200 ? ((await known.json()) as { fact: { latest: { manifestHash: string } | null } }).fact.latest : null;
    if (latest?.manifestHash === report.manifestHash) {
      say(`5. Fact ${key} was asserted for this manifest by an earlier run on chain ${contract.chainId}; left as it is`);
    } else {
      await assertDev({ rpcUrl: RPC, address: contract.address, pair: subject, outcome, manifestHash: report.manifestHash });
      say(`5. Fact ${key} asserted ${outcome} on chain ${contract.chainId} (development account 0)`);
    }
    for (let i = 0; i < 60; i++) {
      const f = await fetch(`${API}/facts/${key}`);
      if (f.status === 200 && ((await f.json()) as { fact: { latest: unknown } }).fact.latest) break;
      await sleep(500);
    }
    say('6. Look around:');
    say(`   page      ${API.replace(/\/api\/v1$/, '')}/cases/${report.id}   (the case page: timeline, side by side, the fact)`);
    say(`   case      ${API}/cases/${report.id}`);
    say(`   evidence  ${API}/cases/${report.id}/evidence?layer=CODE&limit=5`);
    say(`   manifest  ${API}/analyses/${id}/manifest`);
    say(`   fact      ${API}/facts/${key}`);
    say(`   on chain  ${API}/facts/${key}?source=chain   (canonical once finalized: two blocks, about two seconds, later)`);
    say(`   activity  ${API}/activity`);
  } finally {
    await git.stop();
  }
}

main().catch((err) => {
  say(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
