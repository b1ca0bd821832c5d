// `node dist/migrate.js`: apply the analysis schema's migrations and exit.
import { runMigrationCommand } from '@lineage/service-kit';
import { loadPipelineConfig } from './config';
import { SCHEMA, migrations } from './migrations';

runMigrationCommand('analysis-pipeline', () => loadPipelineConfig().DATABASE_URL, SCHEMA, migrations);
