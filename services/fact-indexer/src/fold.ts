// Pure state transitions: how one registry event changes a fact's view and an
// assertion's record. No I/O here, so the rules are unit-tested directly.
import { outcomeFromUint8, resolutionKindFromUint8, type AssertionStatus, type Outcome, type ResolutionKind } from '@lineage/registry';
import type { factsApi } from '@lineage/schemas';

export type ChainEvent = factsApi.ChainEvent;
export type { Outcome };
export type Status = AssertionStatus;

export interface FactView {
  outcome: Outcome;
  status: Status;
  assertionId: string;
  resolutionId: string | null;
  manifestHash: string;
  blockNumber: string;
  blockHash: string;
  updatedAt: string;
}

export interface AssertionState {
  assertionId: string;
  factKey: string;
  templateId: string;
  subjectHash: string;
  asserter: string;
  outcome: Outcome;
  manifestHash: string;
  policyId: string;
  expiresAt: string;
  assertedAt: string;
  status: Status;
  challenger: string | null;
  challengedAt: string | null;
  bySignature: boolean | null;
  caseId: string | null;
  resolutionId: string | null;
  resolvedOutcome: Outcome | null;
  how: ResolutionKind | null;
  resolvedAt: string | null;
}

const str = (e: ChainEvent, k: string): string => {
  const v = e.args[k];
  if (typeof v !== 'string') throw new Error(`event ${e.name} lacks ${k}`);
  return v;
};

export const outcomeOf = (raw: string): Outcome => {
  const o = outcomeFromUint8(BigInt(raw));
  if (!o) throw new Error('event carries outcome NONE');
  return o;
};

export const howOf = (raw: string): ResolutionKind => {
  const h = resolutionKindFromUint8(BigInt(raw));
  if (!h) throw new Error('event carries resolution kind NONE');
  return h;
};

/** The fact key an event concerns, or null for registry-wide events. */
export const factKeyOf = (e: ChainEvent): string | null =>
  e.name === 'FactAsserted' || e.name === 'AssertionChallenged' || e.name === 'AssertionResolved' ? str(e, 'factKey') : null;

/** The assertion an event concerns, or null. */
export const assertionIdOf = (e: ChainEvent): string | null =>
  e.name === 'FactAsserted' || e.name === 'AssertionChallenged' || e.name === 'AssertionResolved' || e.name === 'BondCredited'
    ? str(e, 'assertionId')
    : null;

const stamp = (e: ChainEvent) => ({ blockNumber: e.blockNumber, blockHash: e.blockHash, updatedAt: e.blockTimestamp });

/**
 * A fact's view after one event. The view follows the newest assertion, like
 * the contract's getFact: `outcome` is the proposed one until resolved, the
 * resolved one afterwards. Events about an older assertion leave it alone.
 */
export function foldView(view: FactView | null, e: ChainEvent): FactView | null {
  switch (e.name) {
    case 'FactAsserted':
      return {
        outcome: outcomeOf(str(e, 'outcome')),
        status: 'ASSERTED',
        assertionId: str(e, 'assertionId'),
        resolutionId: null,
        manifestHash: str(e, 'manifestHash'),
        ...stamp(e),
      };
    case 'AssertionChallenged':
      if (!view || view.assertionId !== str(e, 'assertionId')) return view;
      return { ...view, status: 'CHALLENGED', ...stamp(e) };
    case 'AssertionResolved':
      if (!view || view.assertionId !== str(e, 'assertionId')) return view;
      return { ...view, status: 'RESOLVED', outcome: outcomeOf(str(e, 'outcome')), resolutionId: str(e, 'resolutionId'), ...stamp(e) };
    default:
      return view;
  }
}

/** An assertion's record after one event (null before FactAsserted). */
export function foldAssertion(a: AssertionState | null, e: ChainEvent): AssertionState | null {
  switch (e.name) {
    case 'FactAsserted':
      return {
        assertionId: str(e, 'assertionId'),
        factKey: str(e, 'factKey'),
        templateId: str(e, 'templateId'),
        subjectHash: str(e, 'subjectHash'),
        asserter: str(e, 'asserter'),
        outcome: outcomeOf(str(e, 'outcome')),
        manifestHash: str(e, 'manifestHash'),
        policyId: str(e, 'policyId'),
        expiresAt: str(e, 'expiresAt'),
        assertedAt: e.blockTimestamp,
        status: 'ASSERTED',
        challenger: null,
        challengedAt: null,
        bySignature: null,
        caseId: null,
        resolutionId: null,
        resolvedOutcome: null,
        how: null,
        resolvedAt: null,
      };
    case 'AssertionChallenged':
      if (!a) return a;
      return {
        ...a,
        status: 'CHALLENGED',
        challenger: str(e, 'challenger'),
        challengedAt: e.blockTimestamp,
        bySignature: e.args.bySignature === true,
        caseId: str(e, 'caseId'),
      };
    case 'AssertionResolved':
      if (!a) return a;
      return {
        ...a,
        status: 'RESOLVED',
        resolutionId: str(e, 'resolutionId'),
        resolvedOutcome: outcomeOf(str(e, 'outcome')),
        how: howOf(str(e, 'how')),
        resolvedAt: e.blockTimestamp,
      };
    default:
      return a;
  }
}

/**
 * Freshness (docs/facts.md, "Views and freshness"): canonical is RESOLVED, within its policy's freshness
 * window (`canonicalFreshUntil`, compared with chain time when read), and
 * latest carries no newer assertion that is still pending.
 */
export function freshUntil(canonical: FactView | null, latest: FactView | null, canonicalFreshUntil: string | null): string | null {
  if (!canonical || canonical.status !== 'RESOLVED' || canonicalFreshUntil === null) return null;
  if (latest && latest.assertionId !== canonical.assertionId && latest.status !== 'RESOLVED') return null;
  return canonicalFreshUntil;
}

/** Activity identity: stable across replicas and re-indexing. */
export const LOG_INDEX_SPAN = 100_000n;
export const seqOf = (blockNumber: string | bigint, logIndex: number): string =>
  (BigInt(blockNumber) * LOG_INDEX_SPAN + BigInt(logIndex)).toString();

/** The ids an activity item shows, per event kind. */
export function activityIds(e: ChainEvent): {
  factKey: string | null;
  assertionId: string | null;
  resolutionId: string | null;
  policyId: string | null;
  templateId: string | null;
  actor: string | null;
} {
  const a = e.args;
  const s = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : null);
  switch (e.name) {
    case 'TemplateRegistered':
      return { factKey: null, assertionId: null, resolutionId: null, policyId: null, templateId: s('templateId'), actor: null };
    case 'PolicyRegistered':
      return { factKey: null, assertionId: null, resolutionId: null, policyId: s('policyId'), templateId: null, actor: s('resolver') };
    case 'FactAsserted':
      return {
        factKey: s('factKey'),
        assertionId: s('assertionId'),
        resolutionId: null,
        policyId: s('policyId'),
        templateId: s('templateId'),
        actor: s('asserter'),
      };
    case 'AssertionChallenged':
      return {
        factKey: s('factKey'),
        assertionId: s('assertionId'),
        resolutionId: null,
        policyId: null,
        templateId: null,
        actor: s('challenger'),
      };
    case 'AssertionResolved':
      return {
        factKey: s('factKey'),
        assertionId: s('assertionId'),
        resolutionId: s('resolutionId'),
        policyId: null,
        templateId: null,
        actor: s('resolvedBy'),
      };
    case 'OwnershipTransferred':
      return { factKey: null, assertionId: null, resolutionId: null, policyId: null, templateId: null, actor: s('newOwner') };
    case 'BondCredited':
      return { factKey: null, assertionId: s('assertionId'), resolutionId: null, policyId: null, templateId: null, actor: s('account') };
    default:
      return { factKey: null, assertionId: null, resolutionId: null, policyId: null, templateId: null, actor: s('account') };
  }
}
