import { defineConfig } from 'prisma/config';

// Prisma CLI configuration. Only `prisma generate` is used on machines without network access
// (see scripts/prisma-generate.mjs); migrations are applied by scripts/migrate.ts, which records
// them in _prisma_migrations so that `prisma migrate deploy` elsewhere agrees.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/stonehall' },
});
