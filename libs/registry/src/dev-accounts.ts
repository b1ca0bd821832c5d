import { toHex, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

/**
 * Anvil's default development accounts, derived from the mnemonic Foundry publishes for every local node
 * (BIP-44 m/44'/60'/0'/0/i). PUBLIC DEVELOPMENT ACCOUNTS, known to everyone: for the local dev stack, the
 * demo and tests only, never for a real chain or real funds. No key is written down here; each is derived
 * on first use (a PBKDF2 seed, tens of milliseconds), so a service that imports this library pays nothing.
 */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** How many of anvil's accounts the project uses. */
export const DEV_ACCOUNT_COUNT = 6;

export interface DevAccount {
  readonly address: Address;
  readonly privateKey: Hex;
}

const derived = new Map<number, DevAccount>();

/** Development account `index` (0..DEV_ACCOUNT_COUNT-1). */
export function devAccount(index: number): DevAccount {
  if (!Number.isInteger(index) || index < 0 || index >= DEV_ACCOUNT_COUNT) {
    throw new RangeError(`no dev account ${index} (0..${DEV_ACCOUNT_COUNT - 1})`);
  }
  let account = derived.get(index);
  if (!account) {
    const hd = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
    account = { address: hd.address, privateKey: toHex(hd.getHdKey().privateKey!) };
    derived.set(index, account);
  }
  return account;
}

/** Every development account the project uses, in order. */
export const devAccounts = (): readonly DevAccount[] => Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => devAccount(i));
