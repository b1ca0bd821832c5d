import type { Manifest } from '@lineage/engine';
import { ManifestSchema } from '@lineage/schemas';
import { BANNED_WORDS, buildCase, rankEvidence, repositoryName, summarize, whyChosen } from '../src/report';
import { completedEvent, fixtureManifest, manifestBytes } from './manifest-fixture';

const opts = {
  originUrl: 'https://github.com/acme/origin-lib',
  targetUrl: 'https://gitlab.com/other/target-lib.git',
  originCommit: 'a'.repeat(40),
  targetCommit: 'b'.repeat(40),
  evidence: 40,
};
const manifest = ManifestSchema.parse(JSON.parse(manifestBytes(fixtureManifest(opts)).bytes.toString('utf8')));
const event = completedEvent('7', opts, '0x' + '11'.repeat(32), 100);

describe('manifest schema', () => {
  it('accepts the engine-shaped manifest and refuses a wrong verdict or an unbounded field', () => {
    const raw = JSON.parse(manifestBytes(fixtureManifest(opts)).bytes.toString('utf8'));
    expect(ManifestSchema.safeParse(raw).success).toBe(true);
    expect(ManifestSchema.safeParse({ ...raw, verdict: 'STOLEN' }).success).toBe(false);
    expect(ManifestSchema.safeParse({ ...raw, evidence: [{ ...raw.evidence[0], detail: 'x'.repeat(5000) }] }).success).toBe(false);
    expect(ManifestSchema.safeParse({ ...raw, pair: { ...raw.pair, origin: { url: null, commit: 'xyz' } } }).success).toBe(false);
  });
});

describe('evidence ranking', () => {
  it('puts strong before moderate before weak, then higher scores, then manifest order', () => {
    const ranked = rankEvidence(manifest.evidence);
    expect(ranked).toHaveLength(manifest.evidence.length);
    const rank = { STRONG: 3, MODERATE: 2, WEAK: 1 };
    for (let i = 1; i < ranked.length; i++) {
      const a = ranked[i - 1]!;
      const b = ranked[i]!;
      expect(rank[a.strength] > rank[b.strength] || (rank[a.strength] === rank[b.strength] && Number(a.score) >= Number(b.score))).toBe(
        true,
      );
    }
  });

  it('numbers the stored rows 1..n in that order and picks highlights located on both sides', () => {
    const built = buildCase(event, manifest);
    expect(built.evidence.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(built.report.highlights).toHaveLength(10);
    for (const h of built.report.highlights) {
      expect(h.origin).not.toBeNull();
      expect(h.target).not.toBeNull();
    }
    expect(built.report.evidence.total).toBe(40);
    const counts = built.report.evidence.byStrength;
    expect(counts.STRONG + counts.MODERATE + counts.WEAK).toBe(40);
    expect(built.report.alternatives.filter((a) => a.chosen).map((a) => a.verdict)).toEqual(['LIKELY_DERIVED']);
  });
});

describe('summary', () => {
  it('is built from the counts in the manifest', () => {
    const s = summarize(event, manifest);
    const strong = manifest.evidence.filter((e) => e.strength === 'STRONG').length;
    expect(s).toContain('produced 40 evidence items');
    expect(s).toContain(`${strong} strong`);
    expect(s).toContain('acme/origin-lib at aaaaaaaaaaaa');
    expect(s).toContain('other/target-lib at bbbbbbbbbbbb');
    expect(s).toContain('2023-11-14'); // origin committedAt 1700000000
    expect(s).toContain('Verdict LIKELY_DERIVED with medium confidence');
    expect(s).not.toContain('engine summary');
  });

  it.each(['INDEPENDENT', 'SHARED_UPSTREAM', 'DECLARED_FORK', 'LIKELY_DERIVED', 'HEAVILY_DERIVED', 'INSUFFICIENT_EVIDENCE'] as const)(
    'never uses accusing or legal words (%s)',
    (verdict) => {
      for (const evidence of [0, 1, 40]) {
        const m = ManifestSchema.parse(JSON.parse(manifestBytes(fixtureManifest({ ...opts, evidence, verdict })).bytes.toString('utf8')));
        const text = `${summarize(event, m)} ${whyChosen(m)}`;
        expect(text).not.toMatch(BANNED_WORDS);
        expect(text).not.toMatch(/stolen/i);
      }
    },
  );

  it('the banned-word check catches what it must', () => {
    for (const w of [
      'stolen',
      'Stealing',
      'theft',
      'plagiarised',
      'infringes',
      'illegal',
      'unlawful',
      'guilty',
      'liable',
      'pirated',
      'violates',
    ]) {
      expect(`this code was ${w}`).toMatch(BANNED_WORDS);
    }
  });

  it('states the fork point and which side the signals make the original, when the histories share commits', () => {
    const lineage: NonNullable<Manifest['lineage']> = {
      forkPoints: [{ commit: 'c'.repeat(40), time: '1600000000' }],
      originOnlyCommits: 8,
      targetOnlyCommits: 1,
      truncated: false,
      thirdLine: false,
      original: 'origin',
      certain: false,
      signals: [
        { kind: 'MAINTAINERS', original: 'origin', weight: '2.0000', detail: 'd' },
        { kind: 'DECLARATION', original: 'origin', weight: '2.0000', detail: 'd' },
        { kind: 'IDENTITY', original: 'target', weight: '0.5000', detail: 'd' },
      ],
    };
    const m = ManifestSchema.parse(
      JSON.parse(manifestBytes(fixtureManifest({ ...opts, evidence: 5, verdict: 'DECLARED_FORK', lineage })).bytes.toString('utf8')),
    );
    const s = summarize(event, m);
    expect(s).toContain(
      'The newest commit both hold is cccccccccccc, dated 2020-09-13; after it the origin has 8 commits and the target 1 commit.',
    );
    expect(s).toContain('Signals that the origin is the original: maintainers, declaration.');
    expect(s).not.toMatch(BANNED_WORDS);
    const none = ManifestSchema.parse(
      JSON.parse(
        manifestBytes(
          fixtureManifest({ ...opts, evidence: 5, verdict: 'SHARED_UPSTREAM', lineage: { ...lineage, original: 'none' } }),
        ).bytes.toString('utf8'),
      ),
    );
    expect(summarize(event, none)).toContain('The signals do not show which side is the original.');
  });

  it('says plainly when there is no evidence', () => {
    const m = ManifestSchema.parse(
      JSON.parse(manifestBytes(fixtureManifest({ ...opts, evidence: 0, verdict: 'INSUFFICIENT_EVIDENCE' })).bytes.toString('utf8')),
    );
    expect(summarize(event, m)).toContain('produced no evidence items');
  });

  it('explains why the winner won with the other scores', () => {
    expect(whyChosen(manifest)).toBe(
      'LIKELY_DERIVED scored 0.8100, ahead of INDEPENDENT (0.1200), SHARED_UPSTREAM (0.0700). code containment and chronology both point one way',
    );
  });

  it('names forge repositories by owner/name', () => {
    expect(repositoryName('https://github.com/a/b')).toBe('a/b');
    expect(repositoryName('https://gitlab.com/a/b.git')).toBe('a/b');
    expect(repositoryName('https://example.org/x')).toBe('https://example.org/x');
  });
});
