import type { Fingerprints, History, Inventory, RepoRef } from '../types';

/** What the stages before the comparison produced for one side. */
export interface SideData {
  repo: RepoRef;
  inventory: Inventory;
  fingerprints: Fingerprints;
  history: History;
}
