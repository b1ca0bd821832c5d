import { EngineError, inStage, stageError } from '@lineage/engine';

describe('stage errors', () => {
  it('a failure from outside the engine becomes STAGE_FAILED naming the stage and side, without its message', async () => {
    const err = await inStage('fingerprint', 'target', async () => {
      throw new TypeError('secret repository text');
    }).catch((e: unknown) => e as EngineError);
    expect(err).toBeInstanceOf(EngineError);
    expect(err.toJSON()).toEqual({
      code: 'STAGE_FAILED',
      message: 'the fingerprint stage failed on the target (TypeError)',
      stage: 'fingerprint',
      side: 'target',
    });
  });

  it('an engine error keeps its code and gains where it happened, unless it already knows', () => {
    const e = new EngineError('COMMIT_NOT_FOUND', 'commit not found');
    expect(stageError('history', 'origin', e).toJSON()).toEqual({
      code: 'COMMIT_NOT_FOUND',
      message: 'commit not found',
      stage: 'history',
      side: 'origin',
    });
    expect(stageError('compare', null, e).toJSON()).toMatchObject({ stage: 'history', side: 'origin' });
  });
});
