import { subjects } from '@lineage/schemas';
import { ApiError, type Nats } from '@lineage/service-kit';
import type { Chain } from './chain';

export function registerHandlers(nats: Nats, chain: Chain): void {
  nats.serve(subjects.chain.contract, () => chain.contract());
  nats.serve(subjects.chain.heads, () => chain.heads());
  const needsRegistry = async () => {
    if (!chain.configured) throw new ApiError('CHAIN_UNAVAILABLE', 'No registry is configured.');
    // Registry reads (nonces, facts at the finalized block) are wired with the registry library.
    throw new ApiError('CHAIN_UNAVAILABLE', 'Registry reads are not enabled in this build.');
  };
  nats.serve(subjects.chain.nonce, needsRegistry);
  nats.serve(subjects.chain.factAt, needsRegistry);
}
