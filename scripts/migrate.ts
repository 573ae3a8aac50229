// npm run db:migrate — applies prisma/migrations to DATABASE_URL (or the embedded database).
import { openDatabase } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';

const db = await openDatabase();
try {
  const applied = await applyMigrations(db.sql);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await db.close();
}
