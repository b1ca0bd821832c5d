// Which chain a projection belongs to: chain id, registry address, and the hash
// of the registry's deployment block. A fresh chain (a restarted dev anvil, a
// reset testnet) can reuse the chain id and, with the same deployer and nonce,
// the registry address; its deployment block's hash tells it apart at once,
// long before it grows as tall as the chain that was indexed. (The hash of the
// stored finalized block cannot: a fresh, shorter chain does not have it yet.)

export interface ChainIdentity {
  chainId: string | null;
  registry: string | null;
  /** The registry's deployment block; null in a cursor written before it was recorded. */
  deployedBlock: string | null;
  deployedBlockHash: string | null;
}

export type IdentityVerdict =
  | { verdict: 'same' }
  /** Another chain or registry: the projection does not describe it. */
  | { verdict: 'different'; reason: string }
  /** The node does not have the deployment block (lagging or syncing): ask again later. */
  | { verdict: 'unknown'; reason: string };

const lower = (v: string | null) => v?.toLowerCase() ?? null;
const DIFFERENT_CHAIN = 'a different chain than the one indexed';

/**
 * `stored`: from the cursor. `current`: the chain-reader's descriptor, and the
 * node's hash for the *stored* deployment block (null when the node does not
 * have that block). A stored identity without a hash compares chain id and
 * registry only (the caller fills the hash in).
 */
export function compareIdentity(
  stored: ChainIdentity,
  current: { chainId: string | null; registry: string | null; deployedBlockHash: string | null },
): IdentityVerdict {
  const differs: string[] = [];
  if (stored.chainId !== current.chainId)
    differs.push(`chain id ${stored.chainId ?? 'unknown'} (indexed) vs ${current.chainId ?? 'unknown'} (node)`);
  if (lower(stored.registry) !== lower(current.registry))
    differs.push(`registry address differs (indexed ${stored.registry ?? 'none'}, now ${current.registry ?? 'none'})`);
  if (differs.length === 0 && stored.deployedBlockHash !== null && stored.deployedBlock !== null) {
    if (current.deployedBlockHash === null)
      return { verdict: 'unknown', reason: `the node does not have the registry's deployment block ${stored.deployedBlock} yet` };
    if (current.deployedBlockHash.toLowerCase() !== stored.deployedBlockHash.toLowerCase()) {
      differs.push(
        `deployment block ${stored.deployedBlock} hash differs (indexed ${stored.deployedBlockHash}, node ${current.deployedBlockHash})`,
      );
    }
  }
  return differs.length === 0 ? { verdict: 'same' } : { verdict: 'different', reason: `${DIFFERENT_CHAIN}: ${differs.join('; ')}` };
}

/** The way out of any halt (docs/operations.md, LineageIndexerHalted). */
export const RESET_HINT =
  'reset the projection with `node services/fact-indexer/dist/reset.js --yes` and the writer indexes the chain again from the deployment block (docs/operations.md#lineageindexerhalted)';

/** A halt for a different chain: what differs, and both ways out (nothing of the other chain was written, so pointing back at ours is one). */
export const differentChainHalt = (reason: string): string =>
  `${reason}; if chain-reader points at the wrong node or registry, fix that and restart the fact-indexer; otherwise ${RESET_HINT}`;

export const isDifferentChainHalt = (halted: string): boolean => halted.startsWith(DIFFERENT_CHAIN);

export const identityOf = (c: {
  chain_id: string | null;
  registry: string | null;
  deployed_block: string | null;
  deployed_block_hash: string | null;
}): ChainIdentity => ({
  chainId: c.chain_id,
  registry: c.registry,
  deployedBlock: c.deployed_block === null || c.deployed_block === undefined ? null : String(c.deployed_block),
  deployedBlockHash: c.deployed_block_hash ?? null,
});
