// The remote policy lives in the engine (the CLI applies the same rules); here its
// refusals become the API's errors, with the field named and the URL never echoed.
import {
  checkRemote as engineCheckRemote,
  checkRemoteSyntax as engineCheckRemoteSyntax,
  RemoteRefusal,
  type CheckedRemote,
  type RemotePolicy,
} from '@lineage/engine';
import { ApiError } from '@lineage/service-kit';

export { DEFAULT_HOSTS, parseAllowedHosts, pinnedGitConfig, type CheckedRemote, type RemotePolicy } from '@lineage/engine';

const asApiError = (err: unknown): unknown =>
  err instanceof RemoteRefusal ? new ApiError(err.code, err.message, [{ path: err.field, issue: err.issue }]) : err;

export function checkRemoteSyntax(input: string, policy: RemotePolicy, field: string): Omit<CheckedRemote, 'addresses'> {
  try {
    return engineCheckRemoteSyntax(input, policy, field);
  } catch (err) {
    throw asApiError(err);
  }
}

export async function checkRemote(
  input: string,
  policy: RemotePolicy,
  field: string,
  resolve?: (host: string) => Promise<string[]>,
): Promise<CheckedRemote> {
  try {
    return await engineCheckRemote(input, policy, field, resolve);
  } catch (err) {
    throw asApiError(err);
  }
}
