// One zod instance, extended once with `.openapi()`, shared by every schema so
// the OpenAPI document is generated from the very schemas that validate.
import { z } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

extendZodWithOpenApi(z);

export { z };
