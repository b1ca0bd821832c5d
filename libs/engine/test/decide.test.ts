import { decide, type Comparison, type Layer } from '@lineage/engine';

function comparison(scores: Partial<Record<Layer, string>>, metrics: Partial<Comparison['metrics']> = {}): Comparison {
  const layers = (['CODE', 'STRUCTURE', 'HISTORY', 'TEST', 'LANGUAGE', 'DEPENDENCY'] as Layer[]).map((layer) => ({ layer, score: scores[layer] ?? '0.0000', items: 0 }));
  return {
    layers,
    evidence: [],
    chronology: [],
    metrics: {
      targetContainment: scores.CODE ?? '0.0000', originContainment: scores.CODE ?? '0.0000', sharedCommits: 0, declaredUpstream: false, declaredBy: 'none',
      originFirstWeight: 0, targetFirstWeight: 0, originHeadIsShared: false, targetHeadIsShared: false, originCodeTokens: 10000, targetCodeTokens: 10000, fragments: 0,
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

  it('too little material is INSUFFICIENT_EVIDENCE', () => {
    const d = decide(comparison({ CODE: '1.0000', LANGUAGE: '1.0000' }, { originCodeTokens: 20, targetCodeTokens: 20 }));
    expect(d.verdict).toBe('INSUFFICIENT_EVIDENCE');
  });

  it('shared commits explain overlap as shared upstream, with a declaration as a declared fork', () => {
    expect(decide(comparison({ CODE: '0.7000', HISTORY: '0.8000', STRUCTURE: '0.5000' }, { sharedCommits: 4 })).verdict).toBe('SHARED_UPSTREAM');
    const f = decide(comparison({ CODE: '0.7000', HISTORY: '0.8000', STRUCTURE: '0.5000' }, { sharedCommits: 4, declaredUpstream: true, declaredBy: 'target' }));
    expect(f.verdict).toBe('DECLARED_FORK');
    expect(f.direction).toBe('ORIGIN_TO_TARGET');
  });

  it('no overlap with enough material is INDEPENDENT and every alternative is scored', () => {
    const d = decide(comparison({ CODE: '0.0010', STRUCTURE: '0.3000' }));
    expect(d.verdict).toBe('INDEPENDENT');
    expect(d.alternatives.map((a) => a.verdict).sort()).toEqual(['DECLARED_FORK', 'HEAVILY_DERIVED', 'INDEPENDENT', 'INSUFFICIENT_EVIDENCE', 'LIKELY_DERIVED', 'SHARED_UPSTREAM']);
    for (const a of d.alternatives) expect(a.score).toMatch(/^\d\.\d{4}$/);
  });
});
