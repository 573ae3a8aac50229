import { defineConfig } from 'vitest/config';

// Two cores: two workers. Files that touch Postgres get a database of their own (tests/helpers/db.ts),
// so they can run in parallel safely.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'packages/*/tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
