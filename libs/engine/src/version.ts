/**
 * Bump whenever the manifest content for the same input could change, and say what changed in
 * libs/engine/CHANGELOG.md.
 */
export const ENGINE_VERSION = 'lineage-engine/0.7.20';
export const MANIFEST_VERSION = '1';
