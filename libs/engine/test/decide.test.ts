import { DECLARATION_CODE_FLOOR, decide, type Comparison, type Layer, type LineageResult, type LineageSignal } from '@lineage/engine';

function comparison(
  scores: Partial<Record<Layer, string>>,
  metrics: Partial<Comparison['metrics']> = {},
  lineage: LineageResult | null = null,
): Comparison {
  const layers = (['CODE', 'STRUCTURE', 'HISTORY', 'TEST', 'LANGUAGE', 'DEPENDENCY'] as Layer[]).map((layer) => ({
    layer,
    score: scores[layer] ?? '0.0000',
    items: 0,
  }));
  return {
    lineage,
    layers,
    evidence: [],
    chronology: [],
    metrics: {
      targetContainment: scores.CODE ?? '0.0000',
      originContainment: scores.CODE ?? '0.0000',
      sharedCommits: 0,
      declaredUpstream: false,
      declaredBy: 'none',
      originFirstWeight: 0,
      targetFirstWeight: 0,
      originHeadIsShared: false,
      targetHeadIsShared: false,
      originCodeTokens: 10000,
      targetCodeTokens: 10000,
      fragments: 0,
      ...metrics,
    },
  };
}

describe('decide', () => {
  it('a single layer never carries a verdict: high code overlap alone is insufficient', () => {
    const d = decide(comparison({ CODE: '0.9000' }, { originFirstWeight: 100 }));
    expect(d.verdict).toBe('INSUFFICIENT_EVIDENCE');
  });

  it('code plus a corroborating layer with origin-first material is derived origin→target', () => {
    const d = decide(comparison({ CODE: '0.8000', LANGUAGE: '0.5000', STRUCTURE: '0.5000' }, { originFirstWeight: 100 }));
    expect(d.verdict).toBe('HEAVILY_DERIVED');
    expect(d.direction).toBe('ORIGIN_TO_TARGET');
  });

  it('chronology vetoes origin→target when the target material is older', () => {
    const d = decide(comparison({ CODE: '0.3000', LANGUAGE: '0.5000' }, { targetFirstWeight: 100, originFirstWeight: 3 }));
    expect(d.verdict).toBe('LIKELY_DERIVED');
    expect(d.direction).toBe('TARGET_TO_ORIGIN');
  });

  it('mixed chronology gives no direction', () => {
    const d = decide(comparison({ CODE: '0.3000', LANGUAGE: '0.5000' }, { targetFirstWeight: 100, originFirstWeight: 90 }));
    expect(d.direction).toBe('NONE');
  });

  it('without shared history, material each side had first in comparable amounts is a common source, not a derivation', () => {
    const layers = { CODE: '0.1000', LANGUAGE: '0.1200', STRUCTURE: '0.3000' };
    const both = decide(comparison(layers, { originFirstWeight: 664, targetFirstWeight: 935 }));
    expect(both.verdict).toBe('SHARED_UPSTREAM');
    expect(both.direction).toBe('NONE');
    expect(both.alternatives[0]!.reason).toContain('first in the origin (664 fingerprints) and first in the target (935)');
    // One side first by twice the other: derived, in that direction.
    expect(decide(comparison(layers, { originFirstWeight: 664, targetFirstWeight: 300 }))).toMatchObject({
      verdict: 'LIKELY_DERIVED',
      direction: 'ORIGIN_TO_TARGET',
    });
    // Too little dated on one side to speak of an exchange, and no side first: still no derivation without a direction.
    const undated = decide(comparison(layers, { originFirstWeight: 99, targetFirstWeight: 120 }));
    expect(undated).toMatchObject({ verdict: 'SHARED_UPSTREAM', direction: 'NONE' });
    expect(undated.alternatives[0]!.reason).toContain('does not say which side had the shared code first');
  });

  it('without shared history, a derivation needs a direction: undated common code is a common source, however much', () => {
    const layers = { CODE: '0.9500', LANGUAGE: '0.5000', STRUCTURE: '0.5000' };
    // Two imports of one third project (two portable mg's): most of the code in common, nothing dated one way.
    for (const dated of [
      { originFirstWeight: 0, targetFirstWeight: 0 },
      { originFirstWeight: 377, targetFirstWeight: 601 },
    ]) {
      const d = decide(comparison(layers, dated));
      expect(d).toMatchObject({ verdict: 'SHARED_UPSTREAM', direction: 'NONE' });
      const heavy = d.alternatives.find((a) => a.verdict === 'HEAVILY_DERIVED')!;
      expect(Number(heavy.score)).toBeLessThan(Number(d.alternatives[0]!.score));
    }
    // The same code dated one way is a copy, in that direction.
    expect(decide(comparison(layers, { originFirstWeight: 377, targetFirstWeight: 8795 }))).toMatchObject({
      verdict: 'HEAVILY_DERIVED',
      direction: 'TARGET_TO_ORIGIN',
    });
    // A declaration gives the direction: the declared fork stands.
    expect(decide(comparison(layers, { declaredUpstream: true, declaredBy: 'target' }))).toMatchObject({
      verdict: 'DECLARED_FORK',
      direction: 'ORIGIN_TO_TARGET',
    });
  });

  it('two projects generated from one template hold its material in common, not one a copy of the other', () => {
    // bureau x Ticketflix, two cookiecutter-django applications: all the matched material dated first in one of them.
    const layers = { CODE: '0.2179', STRUCTURE: '0.4640', TEST: '1.0000', LANGUAGE: '0.3929' };
    const dated = { originFirstWeight: 0, targetFirstWeight: 968 };
    expect(decide(comparison(layers, dated))).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'TARGET_TO_ORIGIN' });
    const t = decide({ ...comparison(layers, dated), template: 'cookiecutter/cookiecutter-django' });
    expect(t).toMatchObject({ verdict: 'SHARED_UPSTREAM', direction: 'NONE' });
    expect(t.alternatives[0]!.reason).toContain('generated from cookiecutter/cookiecutter-django');
    // Heavy containment does not outweigh it either.
    expect(decide({ ...comparison({ ...layers, CODE: '0.8000' }, dated), template: 'x/starter' }).verdict).toBe('SHARED_UPSTREAM');
    // A declaration of the other side is not overruled by a template both cite.
    expect(
      decide({ ...comparison(layers, { ...dated, declaredUpstream: true, declaredBy: 'origin' }), template: 'x/starter' }).verdict,
    ).toBe('DECLARED_FORK');
  });

  it('a library both sides embed (its notice heads the matched code on both) is a common source, not a derivation', () => {
    // orjson x libmseed, both carrying ibireme's yyjson: the origin embedded it a year earlier.
    const layers = { CODE: '0.3232', LANGUAGE: '0.3037' };
    const dated = { originFirstWeight: 3675, targetFirstWeight: 247, targetContainment: '0.2862' };
    expect(decide(comparison(layers, dated))).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'ORIGIN_TO_TARGET' });
    const d = decide({ ...comparison(layers, dated), thirdParty: 'YaoYuan' });
    expect(d).toMatchObject({ verdict: 'SHARED_UPSTREAM', direction: 'NONE' });
    expect(d.alternatives[0]!.reason).toContain('"YaoYuan"');
    // A declaration of descent still speaks for itself.
    expect(
      decide({ ...comparison(layers, { ...dated, declaredUpstream: true, declaredBy: 'target' }), thirdParty: 'YaoYuan' }).verdict,
    ).toBe('DECLARED_FORK');
    // One layer alone carries no verdict, whatever the notice says.
    expect(decide({ ...comparison({ CODE: '0.3232' }, dated), thirdParty: 'YaoYuan' }).verdict).toBe('INSUFFICIENT_EVIDENCE');
  });

  it('two sides that both declare descent from a project neither is hold its material in common', () => {
    // node-build x pyenv, both made from ruby-build: node-build holds the shared material earlier.
    const layers = { CODE: '0.2582', STRUCTURE: '0.3000', TEST: '0.5000', LANGUAGE: '0.4000' };
    const dated = { originFirstWeight: 900, targetFirstWeight: 40, originContainment: '0.2582', targetContainment: '0.0340' };
    expect(decide(comparison(layers, dated))).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'ORIGIN_TO_TARGET' });
    const d = decide({ ...comparison(layers, dated), commonUpstream: 'ruby-build' });
    expect(d).toMatchObject({ verdict: 'SHARED_UPSTREAM', direction: 'NONE' });
    expect(d.alternatives[0]!.reason).toContain('"ruby-build" by their own statements, and neither is it');
  });

  it('a declared fork keeps its direction unless the dated material decides the other way', () => {
    const layers = { CODE: '0.0600', STRUCTURE: '0.3000' };
    const declared = { declaredUpstream: true, declaredBy: 'target' as const };
    // The target had more of the material first, but not twice as much: the declaration stands.
    expect(decide(comparison(layers, { ...declared, originFirstWeight: 311, targetFirstWeight: 470 }))).toMatchObject({
      verdict: 'DECLARED_FORK',
      direction: 'ORIGIN_TO_TARGET',
    });
    // Twice as much: the material cannot have come from the origin.
    expect(decide(comparison(layers, { ...declared, originFirstWeight: 311, targetFirstWeight: 700 }))).toMatchObject({
      verdict: 'DECLARED_FORK',
      direction: 'NONE',
    });
  });

  it('too little material is INSUFFICIENT_EVIDENCE', () => {
    const d = decide(comparison({ CODE: '1.0000', LANGUAGE: '1.0000' }, { originCodeTokens: 20, targetCodeTokens: 20 }));
    expect(d.verdict).toBe('INSUFFICIENT_EVIDENCE');
  });

  it('shared history carries a verdict alone, whatever the code layers say', () => {
    const d = decide(
      comparison(
        { CODE: '0.0100' },
        { sharedCommits: 656, originContainment: '0.0100' },
        lineage('origin', [signal('MAINTAINERS', 'origin', 2)]),
      ),
    );
    expect(d.verdict).toBe('LIKELY_DERIVED');
    expect(d.direction).toBe('ORIGIN_TO_TARGET');
    expect(d.alternatives[0]!.verdict).toBe('LIKELY_DERIVED');
  });

  it('the derived side declaring it makes a declared fork; the original declaring it does not', () => {
    const l = lineage('origin', [signal('DECLARATION', 'origin', 3), signal('MAINTAINERS', 'origin', 2), signal('IDENTITY', 'origin', 2)]);
    const f = decide(
      comparison({ CODE: '0.7000' }, { sharedCommits: 4, declaredUpstream: true, declaredBy: 'target', originContainment: '0.8000' }, l),
    );
    expect([f.verdict, f.direction, f.confidence]).toEqual(['DECLARED_FORK', 'ORIGIN_TO_TARGET', 'HIGH']);
    const g = decide(
      comparison(
        { CODE: '0.7000' },
        { sharedCommits: 4, declaredUpstream: true, declaredBy: 'origin', originContainment: '0.8000' },
        lineage('origin', [signal('MAINTAINERS', 'origin', 2)]),
      ),
    );
    expect(g.verdict).toBe('HEAVILY_DERIVED');
  });

  it('ancestry is certain; no original means shared upstream', () => {
    const a = decide(
      comparison(
        {},
        { sharedCommits: 10, targetContainment: '0.9000' },
        { ...lineage('target', [signal('ANCESTRY', 'target', 10)]), certain: true },
      ),
    );
    expect([a.verdict, a.direction, a.confidence]).toEqual(['HEAVILY_DERIVED', 'TARGET_TO_ORIGIN', 'HIGH']);
    const s = decide(
      comparison(
        { CODE: '0.9000' },
        { sharedCommits: 10 },
        lineage('none', [signal('IDENTITY', 'origin', 2), signal('MAINTAINERS', 'target', 2)]),
      ),
    );
    expect([s.verdict, s.direction, s.confidence]).toEqual(['SHARED_UPSTREAM', 'NONE', 'LOW']);
    const n = decide(comparison({ CODE: '0.9000' }, { sharedCommits: 10 }, lineage('none', [])));
    expect([n.verdict, n.confidence]).toEqual(['SHARED_UPSTREAM', 'MEDIUM']);
  });

  it('no overlap with enough material is INDEPENDENT and every alternative is scored', () => {
    const d = decide(comparison({ CODE: '0.0010', STRUCTURE: '0.3000' }));
    expect(d.verdict).toBe('INDEPENDENT');
    expect(d.alternatives.map((a) => a.verdict).sort()).toEqual([
      'DECLARED_FORK',
      'HEAVILY_DERIVED',
      'INDEPENDENT',
      'INSUFFICIENT_EVIDENCE',
      'LIKELY_DERIVED',
      'SHARED_UPSTREAM',
    ]);
    for (const a of d.alternatives) expect(a.score).toMatch(/^\d\.\d{4}$/);
  });
});

function signal(kind: LineageSignal['kind'], original: LineageSignal['original'], weight: number): LineageSignal {
  return { kind, original, weight: weight.toFixed(4), detail: kind };
}

function lineage(original: LineageResult['original'], signals: LineageSignal[]): LineageResult {
  return {
    forkPoints: [{ commit: 'a'.repeat(40), time: '1500000000' }],
    originOnlyCommits: 3,
    targetOnlyCommits: 5,
    truncated: false,
    signals,
    thirdLine: false,
    original,
    certain: false,
  };
}

describe('a history rewritten apart (commits both hold under other ids, no id in common)', () => {
  // eslint/typescript-eslint-parser × typescript-eslint: 322 commits replayed into packages/, the code rewritten since.
  const replayed = comparison(
    { CODE: '0.1165', HISTORY: '0.9800' },
    { targetContainment: '0.0018', originContainment: '0.1165', originFirstWeight: 301 },
  );

  it('is common ancestry: derived, in the direction of the dated material, where code alone was insufficient', () => {
    expect(decide(replayed).verdict).toMatch(/^(INDEPENDENT|INSUFFICIENT_EVIDENCE)$/);
    const d = decide({ ...replayed, rewritten: 322 });
    expect(d.verdict).toBe('LIKELY_DERIVED');
    expect(d.direction).toBe('ORIGIN_TO_TARGET');
  });

  it('carries a verdict with too little code in common (plug_cowboy, extracted from plug, which then deleted it)', () => {
    const extracted = comparison({ CODE: '0.0356', HISTORY: '0.6200', STRUCTURE: '0.2500' }, { originFirstWeight: 40 });
    expect(decide(extracted).verdict).toMatch(/^(INDEPENDENT|INSUFFICIENT_EVIDENCE)$/);
    expect(decide({ ...extracted, rewritten: 42 })).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'ORIGIN_TO_TARGET' });
  });

  it('is a shared upstream when the dated material does not tell which side had it first', () => {
    const d = decide({
      ...comparison({ CODE: '0.3000', HISTORY: '0.9000' }, { originFirstWeight: 50, targetFirstWeight: 45 }),
      rewritten: 200,
    });
    expect(d.verdict).toBe('SHARED_UPSTREAM');
    expect(d.direction).toBe('NONE');
  });

  it("is a shared upstream when each side's copies of those commits changed different content: two slices of one history", () => {
    // jupyter/notebook × jupyter/qtconsole at engine 0.7.8: 160 commits of IPython under other ids, 55 of 62 matched
    // fingerprints first in qtconsole; at 0.7.9 the two sides' copies of them share 50 of 248 blobs written.
    const split = comparison({ CODE: '0.0200', HISTORY: '0.9000' }, { originFirstWeight: 7, targetFirstWeight: 55 });
    expect(decide({ ...split, rewritten: 160 })).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'TARGET_TO_ORIGIN' });
    const d = decide({ ...split, rewritten: 160, rewrittenSlices: true });
    expect(d).toMatchObject({ verdict: 'SHARED_UPSTREAM', direction: 'NONE' });
    expect(d.alternatives.find((a) => a.verdict === 'SHARED_UPSTREAM')?.reason).toMatch(/two slices of one history/);
    // Code that supports a relation with corroboration is the third project's too.
    const corroborated = comparison(
      { CODE: '0.2500', HISTORY: '0.9000', STRUCTURE: '0.4000', LANGUAGE: '0.5000' },
      { targetContainment: '0.2500', originContainment: '0.2500', originFirstWeight: 0, targetFirstWeight: 80 },
    );
    expect(decide({ ...corroborated, rewritten: 13 }).verdict).toMatch(/DERIVED$/);
    expect(decide({ ...corroborated, rewritten: 13, rewrittenSlices: true })).toMatchObject({
      verdict: 'SHARED_UPSTREAM',
      direction: 'NONE',
    });
  });
});

describe("a licence that keeps the other side's author's copyright notice (no shared history)", () => {
  // Carbon × chronos at engine 0.6.9: chronos modernised the inherited methods two years before Carbon did, so the
  // matched material dates from chronos first.
  const chronos = comparison(
    { CODE: '0.0850', STRUCTURE: '0.4200', TEST: '0.8097', LANGUAGE: '0.3281' },
    { targetContainment: '0.0850', originContainment: '0.0227', originFirstWeight: 133, targetFirstWeight: 861 },
  );

  it('gives the direction, over the dated material', () => {
    expect(decide(chronos)).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'TARGET_TO_ORIGIN' });
    expect(decide({ ...chronos, attributedBy: 'target' })).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'ORIGIN_TO_TARGET' });
    expect(decide({ ...chronos, attributedBy: 'origin' })).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'TARGET_TO_ORIGIN' });
  });

  it('gives no verdict of its own: without code support the pair stays unrelated', () => {
    const none = comparison({ CODE: '0.0010' }, { originFirstWeight: 0, targetFirstWeight: 0 });
    expect(decide({ ...none, attributedBy: 'target' }).verdict).toBe(decide(none).verdict);
  });
});

describe('the original pointing at the other side as its successor (no shared history)', () => {
  // go-kit/kit × go-kit/log at engine 0.6.11: the extracted repository's rewritten history keeps the original author
  // times, and go-kit/kit's log/ was later rewritten, so the matched material dates from go-kit/log first.
  const gokit = comparison(
    { CODE: '0.0953', HISTORY: '0.9794', STRUCTURE: '0.2676', LANGUAGE: '0.4383' },
    { targetContainment: '0.0953', originContainment: '0.0119', originFirstWeight: 0, targetFirstWeight: 114 },
  );
  const rewritten = { ...gokit, rewritten: 279 };

  it('gives the direction, over the dated material', () => {
    expect(decide(rewritten)).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'TARGET_TO_ORIGIN' });
    expect(decide({ ...rewritten, successorNamedBy: 'origin' })).toMatchObject({
      verdict: 'LIKELY_DERIVED',
      direction: 'ORIGIN_TO_TARGET',
    });
    expect(decide({ ...rewritten, successorNamedBy: 'target' })).toMatchObject({
      verdict: 'LIKELY_DERIVED',
      direction: 'TARGET_TO_ORIGIN',
    });
  });

  it('agrees with a copyright attribution, or leaves no direction when the two disagree', () => {
    expect(decide({ ...rewritten, successorNamedBy: 'origin', attributedBy: 'target' }).direction).toBe('ORIGIN_TO_TARGET');
    expect(decide({ ...rewritten, successorNamedBy: 'origin', attributedBy: 'origin' }).direction).toBe('NONE');
  });

  it('gives no verdict of its own: without code support the pair stays unrelated', () => {
    const none = comparison({ CODE: '0.0010' }, { originFirstWeight: 0, targetFirstWeight: 0 });
    expect(decide({ ...none, successorNamedBy: 'origin' }).verdict).toBe(decide(none).verdict);
  });
});

describe('a comment in matched code declaring where that code came from (no shared history)', () => {
  // JedWatson/classnames × lukeed/clsx at engine 0.6.11: classnames rewrote the tests clsx had ported, in 2023, so the
  // matched material dates from clsx first; clsx's test/classnames.js begins "Ported from `classnames`".
  const clsx = comparison(
    { CODE: '0.3269', LANGUAGE: '0.2100' },
    { targetContainment: '0.1593', originContainment: '0.3269', originFirstWeight: 0, targetFirstWeight: 120 },
  );

  it('gives the direction, over the dated material', () => {
    expect(decide(clsx)).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'TARGET_TO_ORIGIN' });
    expect(decide({ ...clsx, declaredInCodeBy: 'target' })).toMatchObject({ verdict: 'LIKELY_DERIVED', direction: 'ORIGIN_TO_TARGET' });
  });

  it("gives way to a README's declaration, which speaks for the whole project (gofrs/uuid's comments and README)", () => {
    const declared = { ...clsx, metrics: { ...clsx.metrics, declaredUpstream: true, declaredBy: 'origin' as const } };
    expect(decide({ ...declared, declaredInCodeBy: 'target' })).toMatchObject({ verdict: 'DECLARED_FORK', direction: 'TARGET_TO_ORIGIN' });
  });

  it('leaves no direction against a successor statement that says otherwise', () => {
    expect(decide({ ...clsx, declaredInCodeBy: 'target', successorNamedBy: 'target' }).direction).toBe('NONE');
  });
});

describe('evidence standards: a declaration never convicts alone (0.7.0)', () => {
  const declared = { declaredUpstream: true, declaredBy: 'target' as const };

  it('a declaration with no shared commit and no shared code is an unverified claim, never a verdict of descent', () => {
    const d = decide(comparison({}, declared));
    expect(d.verdict).toBe('INSUFFICIENT_EVIDENCE');
    expect(d.direction).toBe('NONE');
    expect(d.alternatives.find((a) => a.verdict === 'DECLARED_FORK')?.score).toBe('0.0000');
    expect(d.alternatives[0]!.reason).toMatch(/claims descent from the other, and neither history nor code corroborates it/);
  });

  it('a claim of design descent with nothing in common is no verdict either way: not independent, never derived (0.7.18)', () => {
    const d = decide({ ...comparison({}), designClaimBy: 'target' });
    expect(d.verdict).toBe('INSUFFICIENT_EVIDENCE');
    expect(d.direction).toBe('NONE');
    expect(d.alternatives.find((a) => a.verdict === 'INDEPENDENT')?.score).toBe('0.0000');
    expect(d.alternatives[0]!.reason).toMatch(/the target says it remade the other's project in code of its own/);
    // Without the claim, the same comparison is independent.
    expect(decide(comparison({})).verdict).toBe('INDEPENDENT');
    // Code in common decides as it would without the claim, and a declaration keeps its own reading.
    expect(decide({ ...comparison({}, declared), designClaimBy: 'target' }).alternatives[0]!.reason).toMatch(
      /claims descent from the other/,
    );
  });

  it('rare shared code below the floor does not corroborate it either; at the floor it does', () => {
    const below = { CODE: String((DECLARATION_CODE_FLOOR / 2).toFixed(4)) };
    expect(decide(comparison(below, declared)).verdict).toBe('INSUFFICIENT_EVIDENCE');
    const at = { CODE: DECLARATION_CODE_FLOOR.toFixed(4) };
    const d = decide(comparison(at, declared));
    expect(d.verdict).toBe('DECLARED_FORK');
    expect(d.direction).toBe('ORIGIN_TO_TARGET');
  });

  it('shared history corroborates a declaration whatever the code', () => {
    const d = decide(comparison({}, { ...declared, sharedCommits: 3 }, lineage('origin', [signal('DECLARATION', 'origin', 2)])));
    expect(d.verdict).toBe('DECLARED_FORK');
  });
});
