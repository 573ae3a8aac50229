#!/usr/bin/env node
// Replaces the pinned copy of Discord's API spec (spec/openapi.json, pin in
// spec/pin.json) and reports what changed between the two: operations added and removed,
// and operations whose request or answers changed. Then run the package's tests (tests/spec.test.ts) and
// the bot's (Stonehall: tests/spec) to see whether the emulator and the bot still agree with it.
//
//   npm run spec:update                        # the newest commit of discord/discord-api-spec
//   npm run spec:update -- --commit 74fda0f    # a given commit
//   npm run spec:update -- --from ./openapi.json --commit 74fda0f   # a file you already have
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('../spec/', import.meta.url);
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const pin = JSON.parse(readFileSync(new URL('pin.json', dir), 'utf8'));
const commit = opt('commit') ?? 'main';
const from = opt('from');

let text;
if (from) text = readFileSync(from, 'utf8');
else {
  const url = `https://raw.githubusercontent.com/discord/discord-api-spec/${commit}/${pin.file}`;
  const res = await fetch(url).catch((e) => {
    console.error(`Could not reach ${url}: ${e.message}. Download it elsewhere and pass --from <file> --commit <sha>.`);
    process.exit(1);
  });
  if (!res.ok) {
    console.error(`${url}: HTTP ${res.status}`);
    process.exit(1);
  }
  text = await res.text();
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
function operations(doc) {
  const out = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      if (!item[m]) continue;
      const digest = createHash('sha256').update(JSON.stringify({ op: item[m], components: refsOf(doc, item[m]) })).digest('hex').slice(0, 12);
      out.set(`${m.toUpperCase()} ${path}`, { id: item[m].operationId, digest });
    }
  }
  return out;
}
/** The component schemas an operation reaches, so a change inside one counts as a change of the operation. */
function refsOf(doc, node, seen = new Map()) {
  if (Array.isArray(node)) node.forEach((n) => refsOf(doc, n, seen));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) {
        if (seen.has(v)) continue;
        const target = v.slice(2).split('/').reduce((o, key) => o?.[key], doc);
        seen.set(v, target);
        refsOf(doc, target, seen);
      } else refsOf(doc, v, seen);
    }
  }
  return Object.fromEntries([...seen.entries()].sort());
}

const next = JSON.parse(text);
const before = operations(JSON.parse(readFileSync(new URL('openapi.json', dir), 'utf8')));
const after = operations(next);
const added = [...after.keys()].filter((k) => !before.has(k));
const removed = [...before.keys()].filter((k) => !after.has(k));
const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k).digest !== after.get(k).digest);

writeFileSync(new URL('openapi.json', dir), text);
writeFileSync(new URL('pin.json', dir), JSON.stringify({ ...pin, commit, committed: opt('date') ?? pin.committed }, null, 2) + '\n');
console.log(`Pinned ${pin.file} at ${commit} (was ${pin.commit}): ${after.size} operations.`);
for (const [title, list] of [['added', added], ['removed', removed], ['changed', changed]]) {
  console.log(`${list.length} ${title}${list.length ? ':' : ''}`);
  for (const k of list) console.log(`  ${k} (${(after.get(k) ?? before.get(k)).id})`);
}
