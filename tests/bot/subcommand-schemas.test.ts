import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { games } from '../../src/games/index.ts';
import { restText } from '../../src/services/cycles.ts';

/**
 * Every subcommand a command registers with Discord is one its schema knows: a subcommand the
 * builder offers but the schema lacks answers every use with "The … option is not valid" (the
 * shared subcommands are picked from a list, and a list that grows moves them).
 */
describe('registered subcommands', () => {
  const cases: [string, string][] = [];
  for (const [name, c] of Object.entries(commands)) {
    for (const o of c.data.toJSON().options ?? []) {
      if (o.type === 1) cases.push([name, o.name]);
      if (o.type === 2) for (const s of (o as { options?: { name: string }[] }).options ?? []) cases.push([name, `${o.name} ${s.name}`]);
    }
  }

  it('there are subcommands to check', () => {
    expect(cases.length).toBeGreaterThan(40);
    expect(cases).toContainEqual(['krellstones', 'help']);
  });

  it.each(cases)('/%s %s is known to its schema', (name, sub) => {
    const c = commands[name]!;
    // The command's own reader, over an interaction that names the subcommand and no option.
    const [group, leaf] = sub.includes(' ') ? sub.split(' ') : [null, sub];
    const options = new Proxy({}, { get: (_t, key) => (key === 'getSubcommand' ? () => leaf : key === 'getSubcommandGroup' ? () => group : () => null) });
    const read = c.read({ options, user: { id: '1' }, guildId: '1' } as never);
    const r = c.schema.safeParse(read);
    const onDiscriminator = r.success ? [] : r.error.issues.filter((i) => (i as { note?: string }).note === 'No matching discriminator');
    expect(onDiscriminator, JSON.stringify(r.success ? null : r.error.issues)).toEqual([]);
  });
});

/**
 * The Rest Phase announcement tells players how to state an intent in every game: it must name the
 * options each game's join really has (Krellstones names a `host`; Keystone takes no `mode`, and the
 * games of up to four also take `mode: together`).
 */
describe('the Rest Phase announcement', () => {
  const text = restText({ games }, 'S / C', { commencementChannelId: '1' } as never);
  it.each(games.all.map((g) => [g.kind] as const))('says how /%s takes an intent, with its real options', (kind) => {
    const g = games.require(kind);
    const part = text.split('; ').find((p) => p.includes(`/${kind} ${g.joinSubcommand}`))!;
    expect(part, text).toBeDefined();
    const join = (commands[kind]!.data.toJSON().options ?? []).find((o) => o.name === g.joinSubcommand) as { options: { name: string; choices?: { value: string }[] }[] };
    const options = new Map(join.options.map((o) => [o.name, o]));
    for (const [, name] of part.matchAll(/\s([a-z0-9-]+):@/g)) expect(options.has(name!), `${part} names ${name}`).toBe(true);
    const modes = options.get('mode')?.choices?.map((c) => c.value) ?? [];
    for (const m of ['any', 'each', 'together']) expect(part.includes(`mode: ${m}`), `${part}: mode ${m}`).toBe(modes.includes(m));
  });
});
