export { z } from './zod';
export * from './common';
export * from './errors';
export * from './subjects';
export * from './streams';
export * from './openapi';
export * as analysisApi from './api/analysis';
export * as casesApi from './api/cases';
export * as factsApi from './api/facts';
