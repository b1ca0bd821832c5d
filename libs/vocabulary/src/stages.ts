// The stages of an analysis, in the order they run. The pipeline runs all of them; the engine's own
// (inventory to manifest) are the same in the CLI and the service (libs/engine/src/stages.ts).

export const STAGE_NAMES = ['resolve', 'fetch', 'inventory', 'fingerprint', 'history', 'compare', 'decide', 'manifest', 'publish'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** The stages the engine runs on two local repositories: everything after fetching and before publishing. */
export const ENGINE_STAGE_NAMES = ['inventory', 'fingerprint', 'history', 'compare', 'decide', 'manifest'] as const;
export type EngineStageName = (typeof ENGINE_STAGE_NAMES)[number];
