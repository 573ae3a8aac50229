#!/usr/bin/env node
// Play through the local Discord emulator from a terminal, as any demo user, without copying ids:
//
//   npm run -s emu -- command alice knucklebones "knucklebones join" opponent=bob
//   npm run -s emu -- buttons bob                  # what Bob can click now (channel and DMs)
//   npm run -s emu -- click bob Accept             # clicks the newest enabled "Accept" Bob sees
//   npm run -s emu -- click alice "Column 2" --dm  # only in Alice's DMs (exits 1 if she has none)
//   npm run -s emu -- read alice knucklebones      # the channel's last messages as Alice sees them
//   npm run -s emu -- advance 24                   # moves the emulator's clock 24 hours on
//
// It speaks only the emulator's test API (docs/emulator.md) at EMULATOR_URL, default
// http://127.0.0.1:$EMULATOR_PORT (8787), so it works with `npm start` or any running emulator.

const base = process.env.EMULATOR_URL ?? `http://127.0.0.1:${process.env.EMULATOR_PORT ?? 8787}`;

async function api(method, path, body) {
  let res;
  try {
    res = await fetch(base + path, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    fail(`No emulator answers at ${base}. Start Stonehall with \`npm start\` (or set EMULATOR_URL).`);
  }
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${json?.message ?? json?.error ?? text}`);
  return json;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** Option values as the emulator takes them: numbers and booleans as such, the rest as text. */
function optionValue(v) {
  if (/^-?\d+$/.test(v) && v.length < 16) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

let names = new Map();
async function loadNames() {
  const state = await api('GET', '/_test/state');
  names = new Map((state.users ?? []).map((u) => [u.id, u.global_name ?? u.username]));
  return state;
}

function textOf(message) {
  return rawText(message).replace(/<@!?(\d+)>/g, (m, id) => (names.has(id) ? `@${names.get(id)}` : m));
}

function rawText(message) {
  const parts = [message.content ?? ''];
  for (const e of message.embeds ?? []) parts.push([e.title, e.description, ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`)].filter(Boolean).join('\n'));
  return parts.filter(Boolean).join('\n');
}

/** Every enabled button and select of these messages, newest message first. */
function clickables(messages, where) {
  const out = [];
  for (const m of [...messages].reverse()) {
    for (const row of m.components ?? []) {
      for (const c of row.components ?? []) {
        if (c.disabled || !c.custom_id) continue;
        const label = c.type === 2 ? (c.label ?? c.emoji?.name ?? '') : (c.placeholder ?? 'select');
        const options = c.type === 3 ? (c.options ?? []).map((o) => `${o.value} (${o.label})`) : [];
        out.push({ where, message: m.id, customId: c.custom_id, label, options });
      }
    }
  }
  return out;
}

async function visible(user, { dmOnly = false } = {}) {
  const found = [];
  const dms = await api('GET', `/_test/users/${encodeURIComponent(user)}/dms`);
  found.push(...clickables(dms.messages ?? [], 'DM'));
  if (!dmOnly) {
    const state = await api('GET', '/_test/state');
    for (const ch of state.channels ?? state.guild?.channels ?? []) {
      if (ch.type !== 0 && ch.type !== undefined) continue;
      const got = await api('GET', `/_test/channels/${encodeURIComponent(ch.id)}/messages?as=${encodeURIComponent(user)}&limit=20`);
      found.push(...clickables(got.messages ?? [], `#${ch.name}`));
    }
  }
  return found;
}

async function showAnswer(interactionId, response) {
  let answer = response;
  if (answer?.type === 5 || answer?.type === 6) {
    // Deferred: wait a little for the bot's edit.
    for (let i = 0; i < 20; i++) {
      const state = await api('GET', `/_test/interactions/${interactionId}`);
      if (state.original) {
        answer = { message: state.original };
        break;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  const msg = answer?.message ?? answer?.data;
  if (msg) console.log(((msg.flags ?? 0) & 64 ? '(only you see this) ' : '') + textOf(msg));
  else if (answer?.type === 7) console.log('(the message was updated)');
}

const [verb, ...args] = process.argv.slice(2);
if (verb) await loadNames();
switch (verb) {
  case 'command': {
    const [user, channel, name, ...opts] = args;
    if (!user || !channel || !name) fail('usage: emu command <user> <channel> "<command> [subcommand]" [option=value ...]');
    const options = Object.fromEntries(opts.map((o) => { const i = o.indexOf('='); return [o.slice(0, i), optionValue(o.slice(i + 1))]; }));
    const r = await api('POST', '/_test/commands', { user, channel, name, options });
    if (r.error) fail(r.error);
    await showAnswer(r.interactionId, r.response);
    break;
  }
  case 'buttons': {
    const [user] = args;
    if (!user) fail('usage: emu buttons <user>');
    const all = await visible(user);
    if (all.length === 0) console.log(`${user} has nothing to click right now.`);
    for (const c of all) console.log(`${c.where.padEnd(16)} ${JSON.stringify(c.label).padEnd(22)} ${c.customId}  (message ${c.message})${c.options.length ? `\n${' '.repeat(17)}values: ${c.options.join(', ')}` : ''}`);
    break;
  }
  case 'click': {
    const dmOnly = args.includes('--dm');
    const [user, what, value] = args.filter((a) => a !== '--dm');
    if (!user || !what) fail('usage: emu click <user> <label or custom id> [select value] [--dm]');
    const all = await visible(user, { dmOnly });
    const want = what.toLowerCase();
    const hit = all.find((c) => c.customId === what) ?? all.find((c) => c.label.toLowerCase() === want) ?? all.find((c) => c.label.toLowerCase().includes(want));
    if (!hit) fail(`${user} has no "${what}" to click${dmOnly ? ' in their DMs (is it their turn?)' : ''}. \`emu buttons ${user}\` lists what they can click.`);
    const r = await api('POST', '/_test/components', { user, message: hit.message, customId: hit.customId, ...(value ? { values: [value] } : {}) });
    if (r.error) fail(r.error);
    console.log(`${user} clicked "${hit.label}" (${hit.where})`);
    await showAnswer(r.interactionId, r.response);
    break;
  }
  case 'read': {
    const [user, channel, n = '3'] = args;
    if (!user || !channel) fail('usage: emu read <user> <channel|dm> [count]');
    const got = channel === 'dm' ? await api('GET', `/_test/users/${encodeURIComponent(user)}/dms`) : await api('GET', `/_test/channels/${encodeURIComponent(channel)}/messages?as=${encodeURIComponent(user)}`);
    for (const m of (got.messages ?? []).slice(-Number(n))) console.log(`--- ${m.author?.username ?? ''} (${m.id})\n${textOf(m)}`);
    break;
  }
  case 'advance': {
    const hours = Number(args[0]);
    if (!Number.isFinite(hours)) fail('usage: emu advance <hours>');
    const r = await api('POST', '/_test/clock/advance', { ms: Math.round(hours * 3_600_000) });
    console.log(`The emulator's clock now reads ${new Date(r.now ?? Date.now()).toISOString()}.`);
    break;
  }
  default:
    fail('usage: emu <command|buttons|click|read|advance> …  (see the top of scripts/emu.mjs)');
}
