import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';

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
