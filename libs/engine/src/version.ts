/** Bump whenever the manifest content for the same input could change (0.2.0: shared misspellings in LANGUAGE, from the pinned list in typos.ts). */
export const ENGINE_VERSION = 'lineage-engine/0.2.0';
export const MANIFEST_VERSION = '1';
