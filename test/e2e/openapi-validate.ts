import { Validator } from '@seriousme/openapi-schema-validator';

/** Validate a document against the official OpenAPI 3.1 JSON schema. */
export async function validate(doc: unknown): Promise<{ valid: boolean; errors: unknown[] }> {
  const v = new Validator();
  const res = await v.validate(doc as Parameters<Validator['validate']>[0]);
  const errors = res.errors === undefined ? [] : Array.isArray(res.errors) ? res.errors : [res.errors];
  return { valid: res.valid, errors };
}
