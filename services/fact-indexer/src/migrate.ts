// `node dist/migrate.js`: apply the facts schema's migrations and exit.
import { runMigrationCommand } from '@lineage/service-kit';
import { loadIndexerConfig } from './config';
import { SCHEMA, migrations } from './migrations';

runMigrationCommand('fact-indexer', () => loadIndexerConfig().DATABASE_URL, SCHEMA, migrations);
