/** Bump whenever the manifest content for the same input could change. */
export const ENGINE_VERSION = 'lineage-engine/0.1.0';
export const MANIFEST_VERSION = '1';
