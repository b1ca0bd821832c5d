import { createDb, ensureDatabase, migrate, type Migration } from './db';

/**
 * Body of each schema owner's `migrate` command (a Kubernetes Job / Helm hook):
 * create the database if needed, apply migrations, exit 0; exit 1 on failure.
 */
export function runMigrationCommand(service: string, databaseUrl: () => string, schema: string, migrations: Migration[]): void {
  const run = async () => {
    const url = databaseUrl();
    await ensureDatabase(url);
    const db = createDb({ url, schema, poolMax: 1, applicationName: `${service}-migrate` });
    try {
      const applied = await migrate(db, schema, migrations);
      console.log(JSON.stringify({ level: 'info', service, msg: 'migrations applied', schema, applied }));
    } finally {
      await db.destroy();
    }
  };
  run().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(
        JSON.stringify({ level: 'fatal', service, msg: 'migration failed', err: err instanceof Error ? err.message : String(err) }),
      );
      process.exit(1);
    },
  );
}
