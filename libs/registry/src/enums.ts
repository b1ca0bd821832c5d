/**
 * The contract's enums as TypeScript string unions, with their uint8 values.
 * Value 0 means "none" on chain (no assertion, not resolved) and maps to null.
 */

import {
  ASSERTION_STATUSES,
  OUTCOMES,
  RESOLUTION_KINDS,
  type AssertionStatus,
  type Outcome,
  type ResolutionKind,
} from '@lineage/vocabulary';

export { ASSERTION_STATUSES, OUTCOMES, RESOLUTION_KINDS, type AssertionStatus, type Outcome, type ResolutionKind };

function toUint8<T extends string>(values: readonly T[], value: T): number {
  const index = values.indexOf(value);
  if (index < 0) throw new RangeError(`unknown value ${JSON.stringify(value)}`);
  return index + 1;
}

function fromUint8<T extends string>(values: readonly T[], raw: number | bigint): T | null {
  const n = Number(raw);
  if (n === 0) return null;
  const value = values[n - 1];
  if (value === undefined || !Number.isInteger(n)) throw new RangeError(`unknown on-chain enum value ${String(raw)}`);
  return value;
}

export const outcomeToUint8 = (outcome: Outcome): number => toUint8(OUTCOMES, outcome);
export const outcomeFromUint8 = (raw: number | bigint): Outcome | null => fromUint8(OUTCOMES, raw);
export const statusToUint8 = (status: AssertionStatus): number => toUint8(ASSERTION_STATUSES, status);
export const statusFromUint8 = (raw: number | bigint): AssertionStatus | null => fromUint8(ASSERTION_STATUSES, raw);
export const resolutionKindToUint8 = (kind: ResolutionKind): number => toUint8(RESOLUTION_KINDS, kind);
export const resolutionKindFromUint8 = (raw: number | bigint): ResolutionKind | null => fromUint8(RESOLUTION_KINDS, raw);
