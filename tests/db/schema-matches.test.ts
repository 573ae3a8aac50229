import { readFile } from 'node:fs/promises';
import { getDMMF } from '@prisma/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, readMigrations } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * Nobody here can run `prisma migrate dev`, so the SQL migrations are written by hand. This test
 * is what keeps them honest: it parses schema.prisma with Prisma's own parser and checks that the
 * migrated database has exactly those tables, columns (type, nullability, default, list), primary
 * keys, unique constraints, indexes and foreign keys.
 */

const PG_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Boolean: 'bool',
  DateTime: 'timestamp',
  Json: 'jsonb',
  Float: 'float8',
  Decimal: 'numeric',
  Bytes: 'bytea',
};

interface Column {
  table_name: string;
  column_name: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  datetime_precision: number | null;
}

let db: TestDatabase;
let dmmf: Awaited<ReturnType<typeof getDMMF>>;
let columns: Column[];

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 2 });
  dmmf = await getDMMF({ datamodel: await readFile('prisma/schema.prisma', 'utf8') });
  columns = await db.sql.query<Column>(
    `SELECT table_name, column_name, udt_name, is_nullable, column_default, datetime_precision
     FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
  );
});
afterAll(async () => {
  await db?.drop();
});

const tableOf = (m: { name: string; dbName: string | null }) => m.dbName ?? m.name;

describe('the migrated database matches schema.prisma', () => {
  it('has a table for every model and no other', () => {
    const tables = [...new Set(columns.map((c) => c.table_name))].sort();
    expect(tables).toEqual(dmmf.datamodel.models.map(tableOf).sort());
  });

  it('has every scalar field as a column of the right type, nullability and default, and no extra column', () => {
    for (const model of dmmf.datamodel.models) {
      const table = tableOf(model);
      const scalar = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum');
      const cols = columns.filter((c) => c.table_name === table);
      expect(cols.map((c) => c.column_name).sort(), `columns of ${table}`).toEqual(scalar.map((f) => f.dbName ?? f.name).sort());
      for (const f of scalar) {
        const col = cols.find((c) => c.column_name === (f.dbName ?? f.name))!;
        const where = `${model.name}.${f.name}`;
        const base = PG_TYPES[f.type];
        expect(base, `${where}: type ${f.type} is not mapped by this test`).toBeDefined();
        expect(col.udt_name, where).toBe(f.isList ? `_${base}` : base);
        // Prisma makes lists nullable in SQL; other fields are NOT NULL exactly when required.
        expect(col.is_nullable, where).toBe(f.isList || !f.isRequired ? 'YES' : 'NO');
        if (f.type === 'DateTime') expect(col.datetime_precision, `${where} precision`).toBe(3);
        const dbDefault = f.hasDefaultValue && !f.isUpdatedAt;
        expect(col.column_default !== null, `${where} default`).toBe(dbDefault);
        if (f.isId && typeof f.default === 'object' && f.default && 'name' in f.default && f.default.name === 'autoincrement') {
          expect(col.column_default, `${where} autoincrement`).toMatch(/^nextval\(/);
        }
      }
    }
  });

  it('has the primary keys, unique constraints and indexes the schema declares', async () => {
    const indexes = await db.sql.query<{ table: string; name: string; unique: boolean; primary: boolean; columns: string[] }>(
      `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
              array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
       CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       WHERE t.relname <> '_prisma_migrations'
       GROUP BY t.relname, i.relname, ix.indisunique, ix.indisprimary`,
    );
    const actual = indexes.map((i) => `${i.table}:${i.primary ? 'pk' : i.unique ? 'unique' : 'index'}:${i.columns.join(',')}`).sort();
    const expected: string[] = [];
    const col = (model: (typeof dmmf.datamodel.models)[number], name: string) => model.fields.find((f) => f.name === name)?.dbName ?? name;
    for (const model of dmmf.datamodel.models) {
      const table = tableOf(model);
      const idField = model.fields.find((f) => f.isId);
      if (idField) expected.push(`${table}:pk:${idField.dbName ?? idField.name}`);
      if (model.primaryKey) expected.push(`${table}:pk:${model.primaryKey.fields.map((f) => col(model, f)).join(',')}`);
      for (const f of model.fields.filter((x) => x.isUnique)) expected.push(`${table}:unique:${f.dbName ?? f.name}`);
      for (const u of model.uniqueFields) expected.push(`${table}:unique:${u.map((f) => col(model, f)).join(',')}`);
    }
    for (const index of dmmf.datamodel.indexes.filter((i) => i.type === 'normal')) {
      const model = dmmf.datamodel.models.find((m) => m.name === index.model)!;
      expected.push(`${tableOf(model)}:index:${index.fields.map((f) => col(model, f.name)).join(',')}`);
    }
    expect(actual).toEqual(expected.sort());
  });

  // Indexes schema.prisma cannot declare (on an expression, or partial), made by the SQL migrations:
  // each with the statements that rely on it. The query above does not see them (no column).
  const SQL_ONLY_INDEXES = [
    // A game's pending outbox rows (outboxRowGame, src/services/notifications.ts): every move's write, a turn DM's target read, the claim's retire test.
    "outbox:outbox_pending_game_idx:CREATE INDEX outbox_pending_game_idx ON public.outbox USING btree (COALESCE((payload ->> 'gameId'::text), ((payload -> 'notification'::text) ->> 'gameId'::text))) WHERE (status = 'pending'::text)",
  ];

  it('has the indexes on expressions the SQL migrations make, and no other', async () => {
    const rows = await db.sql.query<{ table: string; name: string; def: string }>(
      `SELECT t.relname AS table, i.relname AS name, pg_get_indexdef(ix.indexrelid) AS def
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
       WHERE ix.indexprs IS NOT NULL OR ix.indpred IS NOT NULL`,
    );
    expect(rows.map((r) => `${r.table}:${r.name}:${r.def}`).sort()).toEqual([...SQL_ONLY_INDEXES].sort());
  });

  it('has a foreign key for every relation, with the declared referential actions', async () => {
    const fks = await db.sql.query<{ table: string; columns: string[]; ref_table: string; on_delete: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS ref_table,
              array_agg(a.attname::text ORDER BY k.ord) AS columns, c.confdeltype AS on_delete
       FROM pg_constraint c
       CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
       WHERE c.contype = 'f' GROUP BY c.conname, c.conrelid, c.confrelid, c.confdeltype`,
    );
    const actions: Record<string, string> = { Cascade: 'c', Restrict: 'r', SetNull: 'n', NoAction: 'a', SetDefault: 'd' };
    const actual = fks.map((f) => `${f.table}(${f.columns.join(',')})->${f.ref_table}:${f.on_delete}`).sort();
    const expected: string[] = [];
    for (const model of dmmf.datamodel.models) {
      for (const f of model.fields.filter((x) => x.kind === 'object' && x.relationFromFields && x.relationFromFields.length > 0)) {
        const target = dmmf.datamodel.models.find((m) => m.name === f.type)!;
        const cols = f.relationFromFields!.map((n) => model.fields.find((x) => x.name === n)?.dbName ?? n);
        const onDelete = f.relationOnDelete ?? (f.isRequired ? 'Restrict' : 'SetNull');
        expected.push(`${tableOf(model)}(${cols.join(',')})->${tableOf(target)}:${actions[onDelete]}`);
      }
    }
    expect(actual).toEqual(expected.sort());
  });

  it('records every migration in _prisma_migrations with the checksum prisma migrate deploy expects, and re-running is a no-op', async () => {
    const files = await readMigrations();
    const rows = await db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((f) => [f.name, f.checksum]));
    for (const r of rows) {
      expect(r.finished_at).not.toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
    expect(await applyMigrations(db.sql)).toEqual([]);
  });
});
