import { subjects } from '@lineage/schemas';
import type { Nats } from '@lineage/service-kit';
import type { Chain } from './chain';

export function registerHandlers(nats: Nats, chain: Chain): void {
  nats.serve(subjects.chain.contract, () => chain.contract());
  nats.serve(subjects.chain.heads, () => chain.heads());
  nats.serve(subjects.chain.nonce, (q) => chain.nonce(q.address));
  nats.serve(subjects.chain.factAt, (q) => chain.factAt(q.factKey, q.at));
  nats.serve(subjects.chain.logs, (q) => chain.logs(BigInt(q.fromBlock), BigInt(q.toBlock), q.fromLogIndex ?? 0));
  nats.serve(subjects.chain.blocks, (q) => chain.blocks(BigInt(q.fromBlock), BigInt(q.toBlock)));
}
