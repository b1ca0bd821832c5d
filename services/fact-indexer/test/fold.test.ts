import { foldAssertion, foldView, freshUntil, seqOf, type ChainEvent, type FactView } from '../src/fold';

const h = (c: string) => `0x${c.repeat(64)}`;
const ev = (name: ChainEvent['name'], block: number, args: ChainEvent['args']): ChainEvent => ({
  name,
  blockNumber: String(block),
  blockHash: h(String(block % 10)),
  blockTimestamp: String(1000 + block),
  txHash: h('e'),
  logIndex: 0,
  args,
});
const asserted = (id: string, block: number, outcome = '1') =>
  ev('FactAsserted', block, {
    assertionId: id,
    factKey: '9',
    asserter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    templateId: '1',
    subjectHash: h('1'),
    outcome,
    manifestHash: h('2'),
    policyId: '1',
    expiresAt: '5000',
  });
const challenged = (id: string, block: number) =>
  ev('AssertionChallenged', block, {
    assertionId: id,
    factKey: '9',
    challenger: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    caseId: '4211',
    manifestHash: h('2'),
    evidenceDigest: h('0'),
    rationaleHash: h('3'),
    bondPayer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    bySignature: true,
    nonce: '0',
  });
const resolved = (id: string, block: number, outcome: string, how: string) =>
  ev('AssertionResolved', block, {
    assertionId: id,
    factKey: '9',
    resolutionId: '1',
    outcome,
    how,
    resolvedBy: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  });

describe('foldView', () => {
  it('follows assert → challenge → resolve, like getFact', () => {
    let v: FactView | null = null;
    v = foldView(v, asserted('1', 10));
    expect(v).toEqual({
      outcome: 'TRUE',
      status: 'ASSERTED',
      assertionId: '1',
      resolutionId: null,
      manifestHash: h('2'),
      blockNumber: '10',
      blockHash: h('0'),
      updatedAt: '1010',
    });
    v = foldView(v, challenged('1', 11));
    expect(v).toMatchObject({ status: 'CHALLENGED', outcome: 'TRUE', blockNumber: '11' });
    v = foldView(v, resolved('1', 12, '2', '2'));
    expect(v).toMatchObject({ status: 'RESOLVED', outcome: 'FALSE', resolutionId: '1', updatedAt: '1012' });
  });

  it('ignores events about an older assertion once a newer one exists', () => {
    const v = foldView(foldView(null, asserted('1', 10)), asserted('2', 20, '3'));
    expect(foldView(v, resolved('1', 21, '1', '1'))).toBe(v);
    expect(foldView(null, challenged('1', 5))).toBeNull();
  });

  it('registry-wide events leave a view unchanged', () => {
    const v = foldView(null, asserted('1', 10));
    expect(foldView(v, ev('PolicyRegistered', 11, {}))).toBe(v);
  });
});

describe('foldAssertion', () => {
  it('records challenger, signature flag, resolution and method', () => {
    let a = foldAssertion(null, asserted('1', 10));
    a = foldAssertion(a, challenged('1', 11));
    expect(a).toMatchObject({
      status: 'CHALLENGED',
      challenger: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      bySignature: true,
      caseId: '4211',
      challengedAt: '1011',
    });
    a = foldAssertion(a, resolved('1', 12, '2', '2'));
    expect(a).toMatchObject({
      status: 'RESOLVED',
      resolvedOutcome: 'FALSE',
      outcome: 'TRUE',
      how: 'ARBITRATION',
      resolutionId: '1',
      resolvedAt: '1012',
    });
  });
});

describe('freshUntil', () => {
  const resolvedView = foldView(foldView(null, asserted('1', 10)), resolved('1', 12, '1', '1'))!;
  it('needs a RESOLVED canonical view with a freshness deadline', () => {
    expect(freshUntil(resolvedView, resolvedView, '9999')).toBe('9999');
    expect(freshUntil(foldView(null, asserted('1', 10)), null, '9999')).toBeNull();
    expect(freshUntil(null, resolvedView, '9999')).toBeNull();
    expect(freshUntil(resolvedView, resolvedView, null)).toBeNull();
  });
  it('is not fresh while latest carries a newer pending assertion', () => {
    const newer = foldView(resolvedView, asserted('2', 30));
    expect(freshUntil(resolvedView, newer, '9999')).toBeNull();
    expect(freshUntil(resolvedView, foldView(newer, resolved('2', 31, '1', '1')), '9999')).toBe('9999');
  });
});

it('seq orders events by block, then log index', () => {
  expect(BigInt(seqOf('10', 99_999))).toBeLessThan(BigInt(seqOf('11', 0)));
  expect(seqOf('123', 4)).toBe('12300004');
});
