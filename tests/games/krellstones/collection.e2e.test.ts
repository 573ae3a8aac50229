import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, EPHEMERAL, expectRefused, startHarness, type Harness } from '../../helpers/harness.ts';

/**
 * `/krellstone` through the emulator with the real discord.js client: a newcomer claims a kit,
 * lists and inspects it, names a stone, slots a face a moderator granted and takes it out again,
 * buys with credits, trashes a face after confirming, and is refused clearly where it must be.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const K = 'krellstone';
const run = (user: string, options: Record<string, unknown>, name = K) => h.api.command({ user, channel: 'general', name, options });

async function ephemeral(user: string, options: Record<string, unknown>, name = K): Promise<string> {
  const r = await run(user, options, name);
  expect(r.response?.message?.flags, JSON.stringify(r.response)).toBe(EPHEMERAL);
  return r.response!.message!.content;
}

async function assets(user: string, type: string) {
  return h.db.prisma.asset.findMany({ where: { playerId: h.emulator.users[user as 'alice'], game: 'krellstones', type }, orderBy: { id: 'asc' } });
}
type StoneRow = { type: string; sides: Array<{ printed: number; face: { value: number; weight: number } | null }>; alias: string | null };

describe('the Krellstones collection through Discord', () => {
  it('claim, list, inspect, alias, slot, unslot, buy, trash, and the refusals on the way', { timeout: 120_000 }, async () => {
    // A newcomer: nothing yet, and the list says how to start.
    expect(await ephemeral('alice', { subcommand: 'list' })).toMatch(/You have no krellstones yet\. Claim your free starter kit with `\/krellstone claim`/);

    // Claim the kit, once.
    const kit = await ephemeral('alice', { subcommand: 'claim' });
    expect(kit).toMatch(/Your free starter kit:/);
    expect(kit.match(/\*\*(Pawn|Dancer|Krell|Master) #\d+\*\*/g)).toHaveLength(6);
    expect(kit).toMatch(/Mat \*\*#\d+\*\* Modern Krellstones mat/);
    await expectRefused(run('alice', { subcommand: 'claim' }), /You already claimed your free starter kit\. More kits cost 100 credits/);
    const stones = await assets('alice', 'stone');
    expect(stones).toHaveLength(6);
    const master = stones.find((s) => (s.data as StoneRow).type === 'master')!;
    const krell = stones.find((s) => (s.data as StoneRow).type === 'krell')!;

    // List, with an option and with the help file's typed filter.
    expect(await ephemeral('alice', { subcommand: 'list' })).toMatch(/Your krellstones: 6[\s\S]*🪙 0 credits · 2 loose faces · 1 mat/);
    const krells = await ephemeral('alice', { subcommand: 'list', type: 'krell' });
    expect(krells).toMatch(/Your krellstones \(Krells\): 3/);
    expect(krells).not.toMatch(/Pawn/);
    expect(await ephemeral('alice', { subcommand: 'list', filter: 'MASTER' })).toMatch(new RegExp(`Your krellstones \\(Masters\\): 1\\n\\*\\*Master #${master.id}\\*\\*`));
    await expectRefused(run('alice', { subcommand: 'list', filter: 'banana' }), /“banana” is not a stone filter\. Use a type/);

    // Autocomplete offers the stones with their type and values.
    const ac = await h.api.autocomplete({ user: 'alice', channel: 'general', name: K, options: { subcommand: 'inspect', stone: 'mast' }, focused: 'stone' });
    expect(ac.choices).toEqual([{ name: expect.stringMatching(new RegExp(`^Master #${master.id}: 1?\\d`)), value: String(master.id) }]);

    // Alias the master, then inspect it by its alias: 20 sides, each 5.0%.
    expect(await ephemeral('alice', { subcommand_group: 'alias', subcommand: 'set', stone: String(master.id), alias: 'Boss' })).toMatch(new RegExp(`Master #${master.id} is now called \\*\\*Boss\\*\\*`));
    await expectRefused(run('alice', { subcommand_group: 'alias', subcommand: 'set', stone: String(krell.id), alias: 'boss' }), /is already called “Boss”: aliases name one stone each/);
    await expectRefused(run('alice', { subcommand_group: 'alias', subcommand: 'set', stone: String(krell.id), alias: '17' }), /is a number, and numbers name stones by id/);
    const inspected = await ephemeral('alice', { subcommand: 'inspect', stone: 'boss' });
    expect(inspected).toMatch(new RegExp(`Master #${master.id} “Boss”\\*\\* \\(20 sides\\)`));
    expect(inspected.match(/· weight 1 · 5\.0%/g)).toHaveLength(20);

    // A moderator grants Alice a heavy Krell face with a value her Krell does not show; Bob may not.
    const krellValues = (krell.data as StoneRow).sides.map((s) => s.printed);
    const value = Array.from({ length: 18 }, (_, i) => i + 3).find((v) => !krellValues.includes(v))!;
    // /krellstone-grant is hidden from players (Manage Server); a server that shows it to them still gets a refusal.
    await expect(run('bob', { subcommand: 'credits', player: 'bob', amount: 500 }, 'krellstone-grant')).rejects.toThrow(/lacks the permissions/);
    const forged = await h.api.rawInteraction({
      user: 'bob',
      channel: 'general',
      type: 2,
      data: {
        id: '1',
        name: 'krellstone-grant',
        type: 1,
        options: [{ type: 1, name: 'credits', options: [{ type: 6, name: 'player', value: h.emulator.users.bob }, { type: 4, name: 'amount', value: 500 }] }],
        resolved: { users: { [h.emulator.users.bob]: { id: h.emulator.users.bob, username: 'bob', discriminator: '0', global_name: 'Bob', avatar: null } } },
      },
    });
    expect(forged.response?.message?.flags).toBe(EPHEMERAL);
    expect(forged.response?.message?.content).toMatch(/Only moderators/);
    expect(await ephemeral('moderator', { subcommand: 'faces', player: 'alice', type: 'krell', value, weight: 2, promo: false }, 'krellstone-grant')).toMatch(/Granted <@\d+> 1 face \(#\d+\)\. They are told by DM/);
    await h.settle();
    expect((await h.api.dms('alice')).messages.at(-1)?.content).toMatch(/granted you 1 face \(#\d+\) for Krellstones/);
    const face = (await assets('alice', 'face')).at(-1)!;
    // Face inspect: privately, or shown to the channel (the help file's SHOW); it says where it fits.
    expect(await ephemeral('alice', { subcommand_group: 'face', subcommand: 'inspect', face: `#${face.id}` })).toMatch(
      new RegExp(`Face #${face.id}\\*\\*: fits a Krell, shows \\*\\*${value}\\*\\*, weight \\*\\*2\\*\\* \\(a side holding it weighs 3\\)\\.\\nNot a promo face\\.\\nFits now: .*Krell #${krell.id} sides 1, 2, 3, 4, 5, 6`),
    );
    const shown = await run('alice', { subcommand_group: 'face', subcommand: 'inspect', face: String(face.id), show: true });
    expect(shown.response?.message?.flags ?? 0).toBe(0);
    expect(shown.response?.message?.content).toMatch(new RegExp(`^<@\\d+> shows:\\n🧩 \\*\\*Face #${face.id}`));

    // Slot it: autocomplete offers it for that Krell and the sides where it fits; the side now weighs 3.
    const faceAc = await h.api.autocomplete({ user: 'alice', channel: 'general', name: K, options: { subcommand: 'slot', stone: String(krell.id), side: 1, face: '' }, focused: 'face' });
    expect(faceAc.choices?.map((c) => c.value)).toContain(String(face.id));
    const sideAc = await h.api.autocomplete({ user: 'alice', channel: 'general', name: K, options: { subcommand: 'slot', stone: String(krell.id), side: 1, face: String(face.id) }, focused: 'side' });
    expect(sideAc.choices).toEqual([{ name: `Side 1: shows ${krellValues[0]} → ${value}`, value: 1 }]);
    const slotted = await ephemeral('alice', { subcommand: 'slot', stone: String(krell.id), side: 2, face: String(face.id) });
    expect(slotted).toMatch(new RegExp(`Face #${face.id} slotted into side 2`));
    expect(slotted).toMatch(new RegExp(`Side 2: \\*\\*${value}\\*\\*: face ${value} \\(weight \\+2\\) over printed ${krellValues[1]} · weight 3 · 37\\.5%`));
    expect(slotted.match(/· weight 1 · 12\.5%/g)).toHaveLength(5);
    await expectRefused(run('alice', { subcommand: 'slot', stone: String(krell.id), side: 2, face: String(face.id) }), /You have no loose face/);

    // Unslot: the face comes back among her faces, the Krell shows its printed value again.
    const un = await ephemeral('alice', { subcommand: 'unslot', stone: String(krell.id), side: 'all' });
    expect(un).toMatch(new RegExp(`Back among your faces:\\n\\*\\*#\\d+\\*\\* Krell face ${value}, weight 2`));
    expect(un).toMatch(new RegExp(`Side 2: \\*\\*${krellValues[1]}\\*\\*: printed ${krellValues[1]} · weight 1 · 16\\.7%`));
    await expectRefused(run('alice', { subcommand: 'unslot', stone: String(krell.id), side: '2' }), /Side 2 holds no face/);

    // Buy with credits: refused at 0, then a face pack once credits are granted.
    await expectRefused(run('alice', { subcommand: 'buy', item: 'face-pack' }), /A face pack costs 30 credits and you have 0\. Trade in promo faces/);
    expect(await ephemeral('alice', { subcommand: 'shop' })).toMatch(/Starter kit\*\*: 100 credits[\s\S]*Face pack\*\*: 30 credits[\s\S]*You have 🪙 \*\*0\*\* credits/);
    await ephemeral('moderator', { subcommand: 'credits', player: 'alice', amount: 40 }, 'krellstone-grant');
    const bought = await ephemeral('alice', { subcommand: 'buy', item: 'face-pack' });
    expect(bought).toMatch(/You bought a face pack for 30 credits \(🪙 10 left\)/);
    expect(bought.match(/• Face \*\*#\d+\*\*/g)).toHaveLength(3);

    // Trash, with a confirmation: Keep changes nothing; Trash removes the face.
    const loose = await assets('alice', 'face');
    const victim = loose[0]!;
    const ask = await run('alice', { subcommand: 'trash', face: String(victim.id) });
    expect(ask.response?.message?.flags).toBe(EPHEMERAL);
    expect(ask.response?.message?.content).toMatch(new RegExp(`Trash face #${victim.id} \\(.*\\)\\? It will be gone for good`));
    const [trashId, keepId] = buttons(ask.response!.message!).map((b) => b.custom_id!);
    expect([trashId, keepId]).toEqual([`kc:trash:${victim.id}`, `kc:keep:${victim.id}`]);
    const kept = await h.api.click('alice', ask.response!.message!.id, keepId!);
    expect(kept.response?.message?.content).toMatch(/stays in your collection/);
    expect(await assets('alice', 'face')).toHaveLength(loose.length);
    const ask2 = await run('alice', { subcommand: 'trash', face: String(victim.id) });
    const gone = await h.api.click('alice', ask2.response!.message!.id, trashId!);
    expect(gone.response?.type).toBe(7);
    expect(gone.response?.message?.content).toMatch(new RegExp(`Face #${victim.id} .* is gone for good`));
    expect((await assets('alice', 'face')).map((f) => f.id)).not.toContain(victim.id);
    // A replayed click (the buttons are gone; a hand-made interaction) finds nothing to trash.
    await expectRefused(
      h.api.rawInteraction({ user: 'alice', channel: 'general', type: 3, data: { custom_id: trashId!, component_type: 2 }, message: ask2.response!.message!.id }),
      new RegExp(`You have no loose face #${victim.id}`),
    );

    // A roll outside a game is shown to the channel.
    const roll = await run('alice', { subcommand: 'roll', stone: 'Boss' });
    expect(roll.response?.message?.flags ?? 0).toBe(0);
    expect(roll.response?.message?.content).toMatch(new RegExp(`rolls Master #${master.id} “Boss”: side \\d+ shows \\*\\*\\d+\\*\\* \\(a 5\\.0% chance\\)`));

    // Bob has no stones: naming one is refused with what to do.
    await expectRefused(run('bob', { subcommand: 'inspect', stone: String(master.id) }), new RegExp(`You have no krellstone #${master.id}\\. \`/krellstone list\` shows yours`));
    expect(await h.api.state().then((s) => s.rejections)).toEqual([]);
  });
});
