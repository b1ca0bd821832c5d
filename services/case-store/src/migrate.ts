// `node dist/migrate.js`: apply the cases schema's migrations and exit.
import { runMigrationCommand } from '@lineage/service-kit';
import { loadCaseStoreConfig } from './config';
import { SCHEMA, migrations } from './migrations';

runMigrationCommand('case-store', () => loadCaseStoreConfig().DATABASE_URL, SCHEMA, migrations);
