// The case family through the gateway: cases published from analysis-completed events
// (JetStream, durable consumer), the report, evidence filters and facets, search, and
// keyset pagination with signed cursors. The pipeline and the fact-indexer are played by
// stand-ins on the stack's real NATS so the manifests and facts are the test's own.
import { jetstreamManager } from '@nats-io/jetstream';
import { lineageFactKey } from '@lineage/registry';
import { CasePublishedEvent, eventSubjects } from '@lineage/schemas';
import { startStack, type Stack } from '../support/stack';
import { sleep, startService, waitFor, waitReady } from '../support/processes';
import { json } from '../support/http';
import { Standins } from '../../services/case-store/test/standins';
import {
  completedEvent,
  fixtureEvidence,
  fixtureManifest,
  manifestBytes,
  type FixtureOptions,
} from '../../services/case-store/test/manifest-fixture';
import { rankEvidence } from '../../services/case-store/src/report';

jest.setTimeout(60_000);

let stack: Stack;
let standins: Standins;
const get = (path: string) => fetch(`${stack.api}${path}`);

const hex40 = (n: number) => n.toString(16).padStart(40, '0');
type Spec = Omit<FixtureOptions, 'originCommit' | 'targetCommit'> & { analysisId: string };
const fixture = (s: Spec): FixtureOptions => ({
  ...s,
  originCommit: hex40(Number(s.analysisId) * 2),
  targetCommit: hex40(Number(s.analysisId) * 2 + 1),
});

/** Register the manifest with the pipeline stand-in and publish its completed event. */
async function publishCase(s: Spec, opts: { msgId?: string; corruptHash?: boolean } = {}) {
  const o = fixture(s);
  const { bytes, hash } = manifestBytes(fixtureManifest(o));
  standins.manifests.set(s.analysisId, { bytes, hash });
  const event = completedEvent(s.analysisId, o, opts.corruptHash ? '0x' + 'ee'.repeat(32) : hash, bytes.length);
  await standins.publish(event, opts.msgId);
  return event;
}

const A: Spec = {
  analysisId: '101',
  originUrl: 'https://github.com/acme/Widget-Core',
  targetUrl: 'https://github.com/forkers/widget-plus',
  evidence: 130,
  verdict: 'LIKELY_DERIVED',
};
const B: Spec = {
  analysisId: '102',
  originUrl: 'https://github.com/acme/gadget',
  targetUrl: 'https://github.com/someone/gadget1',
  evidence: 12,
  verdict: 'INDEPENDENT',
  seed: 1,
};
const C: Spec = {
  analysisId: '103',
  originUrl: 'https://gitlab.com/other/thing',
  targetUrl: 'https://gitlab.com/other/thing-fork',
  evidence: 0,
  verdict: 'INSUFFICIENT_EVIDENCE',
};
const D: Spec = {
  analysisId: '104',
  originUrl: 'https://codeberg.org/x/lib',
  targetUrl: 'https://codeberg.org/y/lib-copy',
  evidence: 5,
  verdict: 'HEAVILY_DERIVED',
  seed: 2,
};
const E: Spec = {
  analysisId: '105',
  originUrl: 'https://github.com/acme/widget-core',
  targetUrl: 'https://github.com/third/widgets',
  evidence: 3,
  verdict: 'SHARED_UPSTREAM',
};
const INITIAL = [A, B, C, D, E];
const ids: Record<string, string> = {};
const announced: { analysisId: string; caseId: string; manifestHash: string }[] = [];

async function listAll(path: string, limit: number): Promise<{ items: { id: string }[]; pages: number }> {
  const items: { id: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    items.push(...body.items);
    cursor = body.nextCursor;
    pages += 1;
  } while (cursor && pages < 1000);
  return { items, pages };
}

async function consumerIdle(): Promise<void> {
  const jsm = await jetstreamManager(standins.nc);
  let last = '';
  await waitFor(
    'case-store consumer to drain',
    async () => {
      const info = await jsm.consumers.info('LINEAGE_EVENTS', 'case-store');
      last = JSON.stringify({ pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered });
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    30_000,
    100,
  ).catch((err: Error) => {
    process.stderr.write(
      `${last}\n${stack.procs['case-store']
        .output()
        .split('\n')
        .filter((l) => /30[12]|"level":[4-6]0/.test(l))
        .slice(-20)
        .join('\n')}\n`,
    );
    throw err;
  });
}

async function caseIdOf(analysisId: string): Promise<string> {
  return waitFor(
    `case for analysis ${analysisId}`,
    async () => {
      const all = await listAll('/cases', 100);
      for (const c of all.items) {
        const r = await json(await get(`/cases/${c.id}`));
        if (r.case.analysisId === analysisId) return c.id;
      }
      return undefined;
    },
    30_000,
    200,
  );
}

beforeAll(async () => {
  stack = await startStack({ extraEnv: { 'case-store': { FACT_PRESENCE_REFRESH_MS: '300' } } });
  // The stand-ins replace these two services' subjects for this file.
  await Promise.all([stack.procs['analysis-pipeline'].stop(), stack.procs['fact-indexer'].stop()]);
  standins = await Standins.connect(stack.nats.url, 4096);
  standins.servePipeline();
  standins.nc.subscribe(eventSubjects.casePublished, {
    callback: (_e, m) => {
      announced.push(m.json());
    },
  });
  for (const s of INITIAL) await publishCase(s);
  await waitFor(
    'initial cases',
    async () => (await json(await get('/cases?limit=100'))).items.length === INITIAL.length || undefined,
    60_000,
    200,
  );
  const cards = (await json(await get('/cases?limit=100'))).items as {
    id: string;
    pair: { origin: { url: string }; target: { url: string } };
  }[];
  for (const s of INITIAL) ids[s.analysisId] = cards.find((c) => c.pair.target.url === s.targetUrl)!.id;
}, 180_000);

afterAll(async () => {
  await standins?.close();
  await stack?.stop();
}, 60_000);

describe('GET /cases/{id}', () => {
  it('is the full report a reader needs, built from the manifest', async () => {
    const o = fixture(A);
    const body = await json(await get(`/cases/${ids['101']}`));
    const c = body.case;
    expect(c).toMatchObject({
      id: ids['101'],
      analysisId: '101',
      pair: {
        origin: { url: A.originUrl, commit: o.originCommit, committedAt: '1700000000' },
        target: { url: A.targetUrl, commit: o.targetCommit, committedAt: '1710000000' },
      },
      verdict: 'LIKELY_DERIVED',
      confidence: 'MEDIUM',
      direction: 'ORIGIN_TO_TARGET',
      manifestHash: manifestBytes(fixtureManifest(o)).hash,
      engineVersion: 'test-engine-1',
      evidence: { total: 130 },
      fact: null,
    });
    expect(c.factKey).toBe(
      lineageFactKey(1n, {
        originUrl: A.originUrl,
        originCommit: o.originCommit,
        targetUrl: A.targetUrl,
        targetCommit: o.targetCommit,
      }).toString(),
    );
    expect(c.createdAt).toMatch(/^[1-9][0-9]*$/);
    expect(c.summary).toContain('produced 130 evidence items');
    expect(c.summary).not.toMatch(/stolen|theft|steal|plagiar|infring|illegal|guilt/i);
    expect(c.layers).toHaveLength(6);
    expect(c.chronology[0]).toMatchObject({ kind: 'PINNED_COMMIT', side: 'origin', at: '1700000000' });
    expect(c.alternatives.map((a: { verdict: string; chosen: boolean }) => [a.verdict, a.chosen])).toEqual([
      ['LIKELY_DERIVED', true],
      ['INDEPENDENT', false],
      ['SHARED_UPSTREAM', false],
    ]);
    expect(c.whyChosen).toMatch(/^LIKELY_DERIVED scored 0.8100, ahead of INDEPENDENT \(0.1200\)/);
    // Highlights: the strongest items, each with file:line ranges on both sides, ids of the evidence route.
    expect(c.highlights).toHaveLength(10);
    for (const h of c.highlights) {
      expect(h.strength).toBe('STRONG');
      expect(h.origin).toMatchObject({ path: expect.any(String), startLine: expect.any(Number), endLine: expect.any(Number) });
      expect(h.target).toMatchObject({ path: expect.any(String), startLine: expect.any(Number), endLine: expect.any(Number) });
    }
    const firstPage = await json(await get(`/cases/${ids['101']}/evidence?limit=100`));
    for (const h of c.highlights) expect(firstPage.items.find((i: { id: string }) => i.id === h.id)).toEqual(h);
  });

  it('carries the fact from the fact-indexer, and null when it has none or is down', async () => {
    const o = fixture(A);
    const factKey = lineageFactKey(1n, {
      originUrl: A.originUrl,
      originCommit: o.originCommit,
      targetUrl: A.targetUrl,
      targetCommit: o.targetCommit,
    }).toString();
    const view = {
      outcome: 'TRUE',
      status: 'ASSERTED',
      assertionId: '1',
      resolutionId: null,
      manifestHash: '0x' + 'cd'.repeat(32),
      blockNumber: '9',
      blockHash: '0x' + '12'.repeat(32),
      updatedAt: '1720000000',
    };
    const fact = { factKey, templateId: '1', subjectHash: '0x' + '34'.repeat(32), canonical: null, latest: view, fresh: false };
    standins.facts.set(factKey, fact);
    const subs = [standins.serveFacts(), standins.serveFactList()];
    try {
      await waitFor(
        'the fact in the report',
        async () => (await json(await get(`/cases/${ids['101']}`))).case.fact?.factKey === factKey || undefined,
        10_000,
        100,
      );
      expect((await json(await get(`/cases/${ids['101']}`))).case.fact).toEqual(fact);
      expect((await json(await get(`/cases/${ids['102']}`))).case.fact).toBeNull(); // the indexer has no such fact
    } finally {
      for (const sub of subs) sub.unsubscribe();
      standins.facts.clear();
    }
    await sleep(1200); // the presence set goes stale without the indexer
    const res = await get(`/cases/${ids['101']}`); // no indexer at all
    expect(res.status).toBe(200);
    expect((await json(res)).case.fact).toBeNull();
  });

  it('skips asking the indexer for cases whose fact it does not have, and picks up new facts', async () => {
    const keyOf = (s: Spec) => {
      const o = fixture(s);
      return lineageFactKey(1n, {
        originUrl: s.originUrl,
        originCommit: o.originCommit,
        targetUrl: s.targetUrl,
        targetCommit: o.targetCommit,
      }).toString();
    };
    const view = {
      outcome: 'FALSE',
      status: 'RESOLVED',
      assertionId: '2',
      resolutionId: '1',
      manifestHash: '0x' + 'ab'.repeat(32),
      blockNumber: '11',
      blockHash: '0x' + '56'.repeat(32),
      updatedAt: '1720000100',
    };
    const factOf = (s: Spec) => ({
      factKey: keyOf(s),
      templateId: '1',
      subjectHash: '0x' + '78'.repeat(32),
      canonical: view,
      latest: view,
      fresh: true,
    });
    standins.facts.clear();
    standins.facts.set(keyOf(D), factOf(D));
    const subs = [standins.serveFacts(), standins.serveFactList()];
    try {
      await waitFor(
        'fact via the presence set',
        async () => (await json(await get(`/cases/${ids['104']}`))).case.fact?.factKey === keyOf(D) || undefined,
        10_000,
        100,
      );
      await sleep(700); // a refresh that certainly saw the list
      const asked = standins.factRequests;
      expect((await json(await get(`/cases/${ids['105']}`))).case.fact).toBeNull();
      expect(standins.factRequests).toBe(asked); // absent from a fresh set: no request at all
      expect((await json(await get(`/cases/${ids['104']}`))).case.fact).toEqual(factOf(D));
      expect(standins.factRequests).toBe(asked + 1); // present: the fact itself is always read fresh
      standins.facts.set(keyOf(E), factOf(E));
      await waitFor(
        'a new fact after a refresh',
        async () => (await json(await get(`/cases/${ids['105']}`))).case.fact?.factKey === keyOf(E) || undefined,
        10_000,
        100,
      );
    } finally {
      for (const sub of subs) sub.unsubscribe();
      standins.facts.clear();
    }
    // Without the list the set goes stale, and reads ask the indexer again (here: nobody answers → null).
    await sleep(1200);
    expect((await json(await get(`/cases/${ids['104']}`))).case.fact).toBeNull();
  });

  it('unknown and malformed ids', async () => {
    const huge = '9'.repeat(40); // a valid decimal id beyond any stored id's range
    for (const p of [
      '/cases/999999',
      '/cases/999999/evidence',
      '/cases/999999/evidence?layer=CODE',
      `/cases/${huge}`,
      `/cases/${huge}/evidence`,
      '/cases/9223372036854775808',
    ]) {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe('CASE_NOT_FOUND');
    }
    expect((await get('/cases/12abc')).status).toBe(400);
    expect((await get('/cases/-1/evidence')).status).toBe(400);
  });
});

describe('GET /cases/{id}/evidence', () => {
  const items = fixtureEvidence(130, 0);
  const ranked = rankEvidence(items);
  type Item = (typeof ranked)[number];
  type F = { layer?: string; strength?: string; kind?: string; path?: string };
  const matches = (e: Item, f: F) =>
    (!f.layer || e.layer === f.layer) &&
    (!f.strength || e.strength === f.strength) &&
    (!f.kind || e.kind === f.kind) &&
    (!f.path || Boolean(e.origin?.path.startsWith(f.path)) || Boolean(e.target?.path.startsWith(f.path)));
  const count = (list: Item[], key: (e: Item) => string) => {
    const out: Record<string, number> = {};
    for (const e of list) out[key(e)] = (out[key(e)] ?? 0) + 1;
    return out;
  };

  it.each<F>([
    {},
    { layer: 'CODE' },
    { strength: 'STRONG' },
    { kind: 'CODE_FRAGMENT' },
    { path: 'src/' },
    { path: 'src/core/file1' },
    { layer: 'CODE', strength: 'MODERATE' },
    { layer: 'TEST', kind: 'SAME_TEST_NAME', path: 'src/' },
    { strength: 'WEAK', path: 'test/' },
    { layer: 'DEPENDENCY', path: 'docs/' },
    { path: 'nowhere/' },
  ])('filter %j: exact total and facets over the whole filtered set, pages in rank order', async (f) => {
    const expected = ranked.filter((e) => matches(e, f));
    const qs = new URLSearchParams(f as Record<string, string>).toString();
    const first = await json(await get(`/cases/${ids['101']}/evidence?${qs}&limit=7`));
    expect(first.total).toBe(expected.length);
    expect(first.facets).toEqual({
      layer: count(expected, (e) => e.layer),
      strength: count(expected, (e) => e.strength),
      kind: count(expected, (e) => e.kind),
      language: count(expected, (e) => e.language ?? 'none'),
    });
    const all = await listAll(`/cases/${ids['101']}/evidence?${qs}`, 7);
    expect(all.items.map((i) => (i as unknown as { detail: string }).detail)).toEqual(expected.map((e) => e.detail));
    expect(new Set(all.items.map((i) => i.id)).size).toBe(expected.length);
    expect(all.pages).toBe(Math.max(1, Math.ceil(expected.length / 7)));
  });

  it('an empty case has an empty, exact answer', async () => {
    const body = await json(await get(`/cases/${ids['103']}/evidence`));
    expect(body).toEqual({ items: [], nextCursor: null, total: 0, facets: { layer: {}, strength: {}, kind: {}, language: {} } });
  });

  it('refuses unknown filter values and parameters', async () => {
    for (const q of ['layer=SOUL', 'strength=HUGE', 'kind=a%20b', 'colour=red', 'limit=0', 'limit=101']) {
      const res = await get(`/cases/${ids['101']}/evidence?${q}`);
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('cursors are tamper-proof', () => {
  const expectInvalidCursor = async (path: string) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.fields).toEqual([{ path: 'cursor', issue: 'invalid_cursor' }]);
  };

  it('a forged, edited or transplanted cursor is VALIDATION_FAILED', async () => {
    const ev = await json(await get(`/cases/${ids['101']}/evidence?layer=CODE&limit=2`));
    const cur: string = ev.nextCursor;
    expect(cur).toBeTruthy();
    const flipped = cur.slice(0, 3) + (cur[3] === 'A' ? 'B' : 'A') + cur.slice(4);
    await expectInvalidCursor(`/cases/${ids['101']}/evidence?layer=CODE&cursor=${flipped}`);
    await expectInvalidCursor(`/cases/${ids['101']}/evidence?layer=TEST&cursor=${cur}`); // other filter
    await expectInvalidCursor(`/cases/${ids['102']}/evidence?layer=CODE&cursor=${cur}`); // other case
    await expectInvalidCursor(`/cases?cursor=${cur}`); // other table
    await expectInvalidCursor(`/search?q=acme&cursor=${cur}`);
    const forged = Buffer.from(JSON.stringify({ seq: 0 })).toString('base64url') + 'A'.repeat(32);
    await expectInvalidCursor(`/cases/${ids['101']}/evidence?layer=CODE&cursor=${forged}`);
    const list = await json(await get('/cases?limit=1'));
    await expectInvalidCursor(`/cases?verdict=INDEPENDENT&cursor=${list.nextCursor}`);
    await expectInvalidCursor(`/cases/${ids['101']}/evidence?cursor=${list.nextCursor}`);
    await expectInvalidCursor(`/cases?cursor=${'A'.repeat(20)}`);
  });
});

describe('GET /cases', () => {
  it('newest first, filtered by verdict and by repository (case-insensitive substring)', async () => {
    const all = (await json(await get('/cases?limit=100'))).items as { id: string; verdict: string }[];
    const numeric = all.map((c) => BigInt(c.id));
    expect(numeric).toEqual([...numeric].sort((a, b) => (a > b ? -1 : 1)));
    const independent = (await json(await get('/cases?verdict=INDEPENDENT'))).items;
    expect(independent.map((c: { id: string }) => c.id)).toEqual([ids['102']]);
    const widget = (await json(await get('/cases?repository=ACME%2Fwidget-CORE'))).items.map((c: { id: string }) => c.id);
    expect(widget).toEqual([ids['105'], ids['101']]);
    const both = (await json(await get('/cases?repository=acme&verdict=SHARED_UPSTREAM'))).items.map((c: { id: string }) => c.id);
    expect(both).toEqual([ids['105']]);
    expect((await json(await get('/cases?repository=100%25'))).items).toEqual([]); // LIKE metacharacters are literal
  });

  it('pagination neither skips nor repeats while new cases arrive', async () => {
    const before = (await listAll('/cases', 100)).items.map((c) => c.id);
    const first = await json(await get('/cases?limit=2'));
    const seen: string[] = first.items.map((c: { id: string }) => c.id);
    const extra: Spec[] = ['201', '202', '203'].map((analysisId, i) => ({
      analysisId,
      originUrl: `https://github.com/late/origin${i}`,
      targetUrl: `https://github.com/late/target${i}`,
      evidence: 2,
    }));
    for (const s of extra) await publishCase(s);
    await waitFor(
      'late cases',
      async () => (await json(await get('/cases?limit=100'))).items.length === before.length + extra.length || undefined,
      30_000,
      200,
    );
    let cursor: string | null = first.nextCursor;
    while (cursor) {
      const page = await json(await get(`/cases?limit=2&cursor=${cursor}`));
      seen.push(...page.items.map((c: { id: string }) => c.id));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(before);
    const after = (await listAll('/cases', 3)).items.map((c) => c.id);
    expect(after).toHaveLength(before.length + extra.length);
    expect(new Set(after).size).toBe(after.length);
  });
});

describe('GET /search', () => {
  it('matches an exact case id first, then repositories, and says what matched', async () => {
    const id = ids['101']!;
    const hits = (await json(await get(`/search?q=${id}&limit=100`))).items as {
      matchedOn: string;
      case: { id: string; pair: { target: { url: string } } };
    }[];
    expect(hits[0]).toMatchObject({ matchedOn: 'caseId', case: { id } });
    expect(hits.slice(1).every((h) => h.matchedOn === 'repository' && h.case.id !== id)).toBe(true);
    // Every other case whose URL contains the digits is found, once.
    const all = (await listAll('/cases', 100)).items as unknown as {
      id: string;
      pair: { origin: { url: string }; target: { url: string } };
    }[];
    const byUrl = all.filter((c) => c.id !== id && (c.pair.origin.url.includes(id) || c.pair.target.url.includes(id))).map((c) => c.id);
    expect(hits.slice(1).map((h) => h.case.id)).toEqual(byUrl);
  });

  it('matches verdict names case-insensitively, and owner/name substrings', async () => {
    const v = (await json(await get('/search?q=heavily_derived'))).items;
    expect(v).toEqual([{ matchedOn: 'verdict', case: expect.objectContaining({ id: ids['104'], verdict: 'HEAVILY_DERIVED' }) }]);
    const r = (await json(await get('/search?q=Acme/Widget'))).items.map((h: { matchedOn: string; case: { id: string } }) => [
      h.matchedOn,
      h.case.id,
    ]);
    expect(r).toEqual([
      ['repository', ids['105']],
      ['repository', ids['101']],
    ]);
    expect((await json(await get('/search?q=no-such-repository-anywhere'))).items).toEqual([]);
    expect((await json(await get('/search?q=987654321'))).items).toEqual([]);
    expect((await get(`/search?q=${'9'.repeat(30)}`)).status).toBe(200); // numeric but beyond any id: just no id match
  });

  it.each(['1', '2', 'github', 'likely_derived'])('pages through ranks without skipping or repeating (q=%s)', async (q) => {
    const key = (h: unknown) => `${(h as { matchedOn: string }).matchedOn}:${(h as { case: { id: string } }).case.id}`;
    const one = (await json(await get(`/search?q=${q}&limit=100`))).items.map(key);
    expect(one.length).toBeGreaterThan(1);
    expect(new Set(one).size).toBe(one.length);
    const paged = (await listAll(`/search?q=${q}`, 1)).items.map(key);
    expect(paged).toEqual(one);
  });

  it('bounds its input', async () => {
    for (const q of ['', 'q=', `q=${'x'.repeat(257)}`, 'q=a&limit=101']) expect((await get(`/search?${q}`)).status).toBe(400);
  });
});

describe('the events consumer', () => {
  it("announces every published case on the events stream (for the pipeline's caseId)", async () => {
    await waitFor(
      'case-published events',
      async () => INITIAL.every((s) => announced.some((e) => e.analysisId === s.analysisId)) || undefined,
      10_000,
      100,
    );
    for (const s of INITIAL) {
      const e = announced.find((x) => x.analysisId === s.analysisId)!;
      expect(CasePublishedEvent.safeParse(e).success).toBe(true);
      expect(e.caseId).toBe(ids[s.analysisId]);
      expect(e.manifestHash).toBe(manifestBytes(fixtureManifest(fixture(s))).hash);
    }
  });

  it('a redelivered or re-published event changes nothing', async () => {
    const before = await json(await get(`/cases/${ids['101']}`));
    const countBefore = (await listAll('/cases', 100)).items.length;
    const requests = standins.manifestRequests;
    await publishCase(A, { msgId: 'replay-101-a' }); // past the stream's duplicate window id: delivered again
    await publishCase(A, { msgId: 'replay-101-b' });
    await consumerIdle();
    expect((await listAll('/cases', 100)).items.length).toBe(countBefore);
    expect(await json(await get(`/cases/${ids['101']}`))).toEqual(before);
    expect((await json(await get(`/cases/${ids['101']}/evidence?limit=1`))).total).toBe(130);
    expect(standins.manifestRequests).toBe(requests); // an analysis that has a case is acked without work
  });

  it('retries a manifest that is not ready yet, and drops a malformed event and one whose hash does not match', async () => {
    const late: Spec = {
      analysisId: '301',
      originUrl: 'https://github.com/retry/origin',
      targetUrl: 'https://github.com/retry/target',
      evidence: 4,
    };
    standins.notReady.set('301', 1);
    const bad: Spec = {
      analysisId: '302',
      originUrl: 'https://github.com/bad/origin',
      targetUrl: 'https://github.com/bad/target',
      evidence: 4,
    };
    await publishCase(bad, { corruptHash: true });
    await standins.publish({ analysisId: 'not-a-number', pair: null }, 'malformed-1'); // terminated, never retried
    await publishCase(late);
    const id = await waitFor(
      'retried case',
      async () => (await json(await get('/cases?repository=retry/target'))).items[0]?.id as string | undefined,
      30_000,
      200,
    );
    expect((await json(await get(`/cases/${id}/evidence`))).total).toBe(4);
    await consumerIdle();
    expect((await json(await get('/cases?repository=bad/target'))).items).toEqual([]);
  });

  it('a case-store that was down catches up when it returns', async () => {
    await stack.procs['case-store'].stop();
    const missed: Spec = {
      analysisId: '401',
      originUrl: 'https://github.com/while/down-origin',
      targetUrl: 'https://github.com/while/down-target',
      evidence: 6,
    };
    await publishCase(missed);
    const port = stack.ports['case-store'];
    stack.procs['case-store'] = startService('case-store', { ...stack.env, HTTP_PORT: String(port) });
    await waitReady(port, 60_000);
    const found = await waitFor(
      'case published after restart',
      async () => (await json(await get('/cases?repository=while/down'))).items[0],
      30_000,
      200,
    );
    expect(found.pair.target.url).toBe(missed.targetUrl);
    expect(await caseIdOf('401')).toBe(found.id);
  });
});
