import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { SCENARIOS, type Scenario } from '../../../test/fixtures/scenarios';
import { NPM_SCENARIOS } from '../../../test/fixtures/npm-packages';
import { GO_SCENARIOS } from '../../../test/fixtures/go-modules';

jest.setTimeout(180_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-scenarios-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.each([...SCENARIOS, ...NPM_SCENARIOS, ...GO_SCENARIOS].map((s) => [s.name, s] as [string, Scenario]))(
  'scenario %s',
  (_name, s) => {
    it(`gets ${s.verdicts.join(' or ')} with direction ${s.directions.join(' or ')}`, async () => {
      const pair = await s.build(base);
      const r = await analyze({ origin: pair.origin, target: pair.target, workers: 1 });
      expect(s.verdicts).toContain(r.manifest.verdict);
      expect(s.directions).toContain(r.manifest.direction);
      // Every code item carries a path and line range on both sides.
      for (const e of r.manifest.evidence.filter((x) => x.layer === 'CODE')) {
        for (const loc of [e.origin, e.target]) {
          expect(loc).not.toBeNull();
          expect(loc!.path.length).toBeGreaterThan(0);
          expect(loc!.startLine).toBeGreaterThanOrEqual(1);
          expect(loc!.endLine).toBeGreaterThanOrEqual(loc!.startLine);
          expect(loc!.blobId).toMatch(/^[0-9a-f]{40}$/);
        }
      }
      // Every verdict alternative (docs/engine.md, "Decision rules") is scored with a reason.
      expect(r.manifest.alternatives).toHaveLength(6);
      for (const a of r.manifest.alternatives) expect(a.reason.length).toBeGreaterThan(0);
    });
  },
);
