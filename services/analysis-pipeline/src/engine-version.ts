// The engine version that keys deduplication (same pair + same engine → same analysis).
// Re-exported from one place so the engine library can take it over without touching callers.
export const ENGINE_VERSION = 'lineage-engine/0.1.0';
