// Real manifests from the engine (analyze() over the fixture scenarios' git repositories)
// go through the case-store's schema and report builder unchanged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { ManifestSchema } from '@lineage/schemas';
import { SCENARIOS } from '../../../test/fixtures/scenarios';
import { BANNED_WORDS, buildCase } from '../src/report';

jest.setTimeout(180_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-case-manifests-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it.each(['fork-declared', 'renamed-copy', 'same-spec-independent'])(
  'the engine manifest of %s parses and becomes a neutral report',
  async (name) => {
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    const pair = await scenario.build(base);
    const result = await analyze({
      origin: { ...pair.origin, url: 'https://github.com/o/origin' },
      target: { ...pair.target, url: 'https://github.com/t/target' },
    });
    const parsed = ManifestSchema.safeParse(JSON.parse(result.bytes.toString('utf8')));
    expect(parsed.success ? [] : parsed.error.issues.slice(0, 3)).toEqual([]);
    const manifest = parsed.data!;
    expect(manifest.evidence).toHaveLength(result.manifest.evidence.length);
    const event = {
      analysisId: '1',
      pair: {
        origin: { url: 'https://github.com/o/origin', commit: manifest.pair.origin.commit, committedAt: null },
        target: { url: 'https://github.com/t/target', commit: manifest.pair.target.commit, committedAt: null },
      },
      engineVersion: manifest.engineVersion,
      manifestHash: result.hash,
      manifestBytes: result.bytes.length,
      completedAt: '1700000000',
    };
    const built = buildCase(event, manifest);
    expect(built.evidence).toHaveLength(manifest.evidence.length);
    expect(built.report.verdict).toBe(manifest.verdict);
    expect(built.report.summary).not.toMatch(BANNED_WORDS);
    expect(built.report.whyChosen).toContain(manifest.verdict);
    expect(built.report.alternatives.filter((a) => a.chosen)).toHaveLength(
      manifest.alternatives.some((a) => a.verdict === manifest.verdict) ? 1 : 0,
    );
  },
);
