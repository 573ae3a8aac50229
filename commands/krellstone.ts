import { SlashCommandBuilder } from '@discordjs/builders';
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { toDiscord } from '../src/bot/game-routes.ts';
import { EPHEMERAL, displayName, memberAuthority, requireGuild, respondChoices } from '../src/bot/interaction-utils.ts';
import { trashConfirmation } from '../src/games/krellstones/collection-routes.ts';
import {
  faceDetailText,
  faceLine,
  faceListText,
  faceName,
  parseFaceFilter,
  parseStoneFilter,
  receivedText,
  shopText,
  stoneChoice,
  stoneDetailText,
  stoneListText,
  stoneName,
  typeName,
} from '../src/games/krellstones/collection-text.ts';
import { PRICES, STONE_KINDS, STONE_TYPES } from '../src/games/krellstones/data.ts';
import {
  buy,
  claimStarterKit,
  grant,
  grantText,
  inspectFace,
  inspectStone,
  listFaces,
  listStones,
  pickables,
  removeAlias,
  rollStone,
  setAlias,
  shop,
  SHOP,
  slotFace,
  tradeIn,
  unslotFaces,
  type Grant,
} from '../src/games/krellstones/inventory.ts';

/**
 * `/krellstone`: the Krellstones collection of the help file (KRELLSTONE LIST, INSPECT, ROLL,
 * ALIAS, FACE LIST, FACE, TRASH, TRADEIN, SLOT, UNSLOT), the free starter kit, the shop, and
 * moderators' grants (through `/krellstone-grant`, hidden from players). The game itself is `/krellstones`. Answers about one's own collection are
 * ephemeral; a roll is shown to the channel. Stones are picked by alias or number, faces by number,
 * both with autocomplete.
 */

export const typeChoices = STONE_TYPES.map((t) => ({ name: STONE_KINDS[t].name, value: t }));
const stoneType = z.enum(STONE_TYPES);
const userOption = z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() });
const stoneRef = z.string().trim().min(1).max(40);
const faceRef = z
  .string()
  .trim()
  .regex(/^#?\d{1,9}$/, 'Give the face’s number, e.g. `31` (`/krellstone face list` shows them).')
  .transform((s) => Number(s.replace('#', '')));
const side = z.number().int().min(1).max(20);
const opt = <T extends z.ZodType>(t: T) => t.nullable().transform((x) => x ?? null);

const schema = z.discriminatedUnion('cmd', [
  z.object({ cmd: z.literal('list'), type: opt(stoneType), inGame: opt(z.boolean()), hasAlias: opt(z.boolean()), filter: opt(z.string().max(100)) }),
  z.object({ cmd: z.literal('inspect'), stone: stoneRef, show: opt(z.boolean()) }),
  z.object({ cmd: z.literal('roll'), stone: stoneRef }),
  z.object({ cmd: z.literal('alias set'), stone: stoneRef, alias: z.string().min(1).max(32) }),
  z.object({ cmd: z.literal('alias remove'), stone: stoneRef }),
  z.object({
    cmd: z.literal('face list'),
    type: opt(stoneType),
    promo: opt(z.boolean()),
    unslotted: opt(z.boolean()),
    atLeast: opt(z.number().int().min(0).max(100)),
    atMost: opt(z.number().int().min(0).max(100)),
    filter: opt(z.string().max(100)),
  }),
  z.object({ cmd: z.literal('face inspect'), face: faceRef, show: opt(z.boolean()) }),
  z.object({ cmd: z.literal('trash'), face: faceRef }),
  z.object({ cmd: z.literal('tradein'), face: faceRef }),
  z.object({ cmd: z.literal('slot'), stone: stoneRef, side, face: faceRef }),
  z.object({
    cmd: z.literal('unslot'),
    stone: stoneRef,
    side: z
      .string()
      .trim()
      .regex(/^(all|\d{1,2})$/i, 'Give the side’s number (1-20), or `all`.')
      .transform((s) => (s.toLowerCase() === 'all' ? ('all' as const) : Number(s))),
  }),
  z.object({ cmd: z.literal('claim') }),
  z.object({ cmd: z.literal('shop') }),
  z.object({ cmd: z.literal('buy'), item: z.enum(['starter-kit', 'face-pack', 'mat']) }),
  z.object({ cmd: z.literal('grant stones'), player: userOption, type: stoneType, count: opt(z.number().int().min(1).max(20)) }),
  z.object({
    cmd: z.literal('grant faces'),
    player: userOption,
    type: opt(stoneType),
    value: opt(z.number().int().min(1).max(67)),
    weight: opt(z.union([z.literal(0), z.literal(1), z.literal(2)])),
    promo: opt(z.boolean()),
    count: opt(z.number().int().min(1).max(20)),
  }),
  z.object({ cmd: z.literal('grant mats'), player: userOption, name: opt(z.string().min(1).max(40)), count: opt(z.number().int().min(1).max(20)) }),
  z.object({ cmd: z.literal('grant credits'), player: userOption, amount: z.number().int().min(1).max(100_000) }),
]);
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('krellstone')
  .setDescription('Your Krellstones collection: stones, faces, mats, credits and the shop.')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('list')
      .setDescription('List the krellstones you own (filters combine).')
      .addStringOption((o) => o.setName('type').setDescription('Only this type').addChoices(...typeChoices))
      .addBooleanOption((o) => o.setName('in-game').setDescription('True: only stones in a game; False: only stones free to change'))
      .addBooleanOption((o) => o.setName('has-alias').setDescription('True: only aliased stones; False: only stones without an alias'))
      .addStringOption((o) => o.setName('filter').setDescription('Or typed, as in the help file: DANCER INGAME HASALIAS').setMaxLength(100)),
  )
  .addSubcommand((s) =>
    s
      .setName('inspect')
      .setDescription('Inspect a krellstone: each side’s value, slotted face, weight and chance.')
      .addStringOption((o) => o.setName('stone').setDescription('Alias or number').setRequired(true).setAutocomplete(true).setMaxLength(40))
      .addBooleanOption((o) => o.setName('show').setDescription('True: show it to the channel (default: only you)')),
  )
  .addSubcommand((s) =>
    s
      .setName('roll')
      .setDescription('Roll a krellstone outside a game (the channel sees it).')
      .addStringOption((o) => o.setName('stone').setDescription('Alias or number').setRequired(true).setAutocomplete(true).setMaxLength(40)),
  )
  .addSubcommandGroup((g) =>
    g
      .setName('alias')
      .setDescription('Name a krellstone, or remove its name.')
      .addSubcommand((s) =>
        s
          .setName('set')
          .setDescription('Alias a krellstone to something memorable (not a number; one stone per alias).')
          .addStringOption((o) => o.setName('stone').setDescription('Alias or number').setRequired(true).setAutocomplete(true).setMaxLength(40))
          .addStringOption((o) => o.setName('alias').setDescription('The new alias (up to 32 characters)').setRequired(true).setMaxLength(32)),
      )
      .addSubcommand((s) =>
        s
          .setName('remove')
          .setDescription('Remove a krellstone’s alias.')
          .addStringOption((o) => o.setName('stone').setDescription('Alias or number').setRequired(true).setAutocomplete(true).setMaxLength(40)),
      ),
  )
  .addSubcommandGroup((g) =>
    g
      .setName('face')
      .setDescription('Your faces: list and inspect.')
      .addSubcommand((s) =>
        s
          .setName('list')
          .setDescription('View the faces you own (filters combine).')
          .addStringOption((o) => o.setName('type').setDescription('Only faces for this type').addChoices(...typeChoices))
          .addBooleanOption((o) => o.setName('promo').setDescription('True: only promo faces; False: only others'))
          .addBooleanOption((o) => o.setName('unslotted').setDescription('True: only loose faces; False: only faces slotted in stones'))
          .addIntegerOption((o) => o.setName('at-least').setDescription('Value N or more (the help file’s >N)').setMinValue(0).setMaxValue(100))
          .addIntegerOption((o) => o.setName('at-most').setDescription('Value N or less (the help file’s <N)').setMinValue(0).setMaxValue(100))
          .addStringOption((o) => o.setName('filter').setDescription('Or typed: MASTER UNSLOTTED PROMO >20 <40').setMaxLength(100)),
      )
      .addSubcommand((s) =>
        s
          .setName('inspect')
          .setDescription('Inspect a face: its value, weight, promo, and where it fits.')
          .addStringOption((o) => o.setName('face').setDescription('Face number').setRequired(true).setAutocomplete(true).setMaxLength(12))
          .addBooleanOption((o) => o.setName('show').setDescription('True: show it to the channel (the help file’s SHOW; default: only you)')),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('trash')
      .setDescription('Discard a face, forever (asks first).')
      .addStringOption((o) => o.setName('face').setDescription('Face number').setRequired(true).setAutocomplete(true).setMaxLength(12)),
  )
  .addSubcommand((s) =>
    s
      .setName('tradein')
      .setDescription(`Trade in a promo face for ${PRICES.promoTradeIn} credits.`)
      .addStringOption((o) => o.setName('face').setDescription('Promo face number').setRequired(true).setAutocomplete(true).setMaxLength(12)),
  )
  .addSubcommand((s) =>
    s
      .setName('slot')
      .setDescription('Slot a face into a side of a krellstone.')
      .addStringOption((o) => o.setName('stone').setDescription('Alias or number').setRequired(true).setAutocomplete(true).setMaxLength(40))
      .addIntegerOption((o) => o.setName('side').setDescription('Side number').setRequired(true).setMinValue(1).setMaxValue(20).setAutocomplete(true))
      .addStringOption((o) => o.setName('face').setDescription('Face number').setRequired(true).setAutocomplete(true).setMaxLength(12)),
  )
  .addSubcommand((s) =>
    s
      .setName('unslot')
      .setDescription('Take faces out of a krellstone (one side, or all); they return to your faces.')
      .addStringOption((o) => o.setName('stone').setDescription('Alias or number').setRequired(true).setAutocomplete(true).setMaxLength(40))
      .addStringOption((o) => o.setName('side').setDescription('Side number, or all').setRequired(true).setAutocomplete(true).setMaxLength(3)),
  )
  .addSubcommand((s) => s.setName('claim').setDescription('Claim your free starter kit (once): 6 stones, a mat and 2 faces.'))
  .addSubcommand((s) => s.setName('shop').setDescription('What the shop sells, and your credits.'))
  .addSubcommand((s) =>
    s
      .setName('buy')
      .setDescription('Buy from the shop with credits.')
      .addStringOption((o) =>
        o
          .setName('item')
          .setDescription('What to buy')
          .setRequired(true)
          .addChoices(...SHOP.map((i) => ({ name: `${i.name} (${i.price} credits)`, value: i.item }))),
      ),
  );

function read(i: ChatInputCommandInteraction): unknown {
  const group = i.options.getSubcommandGroup(false);
  const sub = i.options.getSubcommand(false);
  const u = i.options.getUser('player');
  return {
    cmd: group ? `${group} ${sub}` : sub,
    type: i.options.getString('type'),
    inGame: i.options.getBoolean('in-game'),
    hasAlias: i.options.getBoolean('has-alias'),
    filter: i.options.getString('filter'),
    stone: i.options.getString('stone'),
    alias: i.options.getString('alias'),
    promo: i.options.getBoolean('promo'),
    unslotted: i.options.getBoolean('unslotted'),
    atLeast: i.options.getInteger('at-least'),
    atMost: i.options.getInteger('at-most'),
    face: i.options.getString('face'),
    side: sub === 'unslot' ? i.options.getString('side') : i.options.getInteger('side'),
    item: i.options.getString('item'),
    player: u ? { id: u.id, name: displayName(u), bot: u.bot } : null,
    value: i.options.getInteger('value'),
    weight: i.options.getInteger('weight'),
    count: i.options.getInteger('count'),
    name: i.options.getString('name'),
    amount: i.options.getInteger('amount'),
    show: i.options.getBoolean('show'),
  };
}

async function execute(i: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(i);
  const ctx = deps.ctx;
  const me = { guildId, playerId: i.user.id };
  const player = { id: i.user.id, name: displayName(i.user), bot: i.user.bot };
  const reply = async (content: string) => void (await i.reply({ content: content.slice(0, 2000), flags: EPHEMERAL, allowedMentions: { parse: [] } }));
  /** Shown to the channel, on the owner's request (SHOW). */
  const show = async (content: string) => void (await i.reply({ content: `<@${i.user.id}> shows:\n${content}`.slice(0, 2000), allowedMentions: { parse: [] } }));
  switch (input.cmd) {
    case 'list': {
      const filter = parseStoneFilter(input.filter, { type: input.type, inGame: input.inGame, hasAlias: input.hasAlias });
      return reply(stoneListText(await listStones(ctx, { ...me, filter }), filter));
    }
    case 'inspect':
      return (input.show ? show : reply)(stoneDetailText(await inspectStone(ctx, { ...me, stone: input.stone })));
    case 'roll': {
      const r = await rollStone(ctx, { ...me, stone: input.stone });
      const chance = `${(Math.round(r.chance * 1000) / 10).toFixed(1)}%`;
      await i.reply({ content: `🎲 <@${i.user.id}> rolls ${stoneName(r.stone)}: side ${r.side} shows **${r.value}** (a ${chance} chance).`, allowedMentions: { parse: [] } });
      return;
    }
    case 'alias set': {
      const s = await setAlias(ctx, { ...me, stone: input.stone, alias: input.alias });
      return reply(`🏷️ ${typeName(s.type)} #${s.id} is now called **${s.alias}**: name it so in any command.`);
    }
    case 'alias remove': {
      const { stone, removed } = await removeAlias(ctx, { ...me, stone: input.stone });
      return reply(`🏷️ ${typeName(stone.type)} #${stone.id} is no longer called “${removed}”.`);
    }
    case 'face list': {
      const filter = parseFaceFilter(input.filter, { type: input.type, promo: input.promo, unslotted: input.unslotted, atLeast: input.atLeast, atMost: input.atMost });
      const filtered = Object.values(filter).some((v) => v !== null && v !== undefined);
      return reply(faceListText(await listFaces(ctx, { ...me, filter }), filtered));
    }
    case 'face inspect':
      return (input.show ? show : reply)(faceDetailText(await inspectFace(ctx, { ...me, faceId: input.face })));
    case 'trash': {
      const face = await inspectFace(ctx, { ...me, faceId: input.face });
      await i.reply({ ...toDiscord(trashConfirmation(face)), flags: EPHEMERAL } as never);
      return;
    }
    case 'tradein': {
      const t = await tradeIn(ctx, { ...me, faceId: input.face });
      return reply(`🪙 Face #${t.face.id} (${faceName(t.face)}) traded in for ${t.gained} credits. You have **${t.credits}** credits.`);
    }
    case 'slot': {
      const d = await slotFace(ctx, { ...me, stone: input.stone, side: input.side, faceId: input.face });
      return reply(`🧩 Face #${input.face} slotted into side ${input.side}.\n${stoneDetailText(d)}`);
    }
    case 'unslot': {
      const { stone, faces } = await unslotFaces(ctx, { ...me, stone: input.stone, side: input.side });
      const back = faces.map((f) => faceLine(f)).join('\n');
      return reply(`🧩 Back among your faces:\n${back}\n${stoneDetailText(stone)}`);
    }
    case 'claim': {
      const got = await claimStarterKit(ctx, { guildId, player });
      return reply(`🎁 Your free starter kit:\n${receivedText(got)}\nSlot faces with \`/krellstone slot\`; host a game with \`/krellstones start\`.`);
    }
    case 'shop': {
      const s = await shop(ctx, me);
      return reply(shopText(s.items, s.credits, s.freeKitAvailable));
    }
    case 'buy': {
      const got = await buy(ctx, { guildId, player, item: input.item });
      const name = SHOP.find((s) => s.item === input.item)!.name;
      return reply(`🛒 You bought a ${name.toLowerCase()} for ${got.price} credits (🪙 ${got.credits} left):\n${receivedText(got)}`);
    }
    case 'grant stones':
    case 'grant faces':
    case 'grant mats':
    case 'grant credits': {
      const g: Grant =
        input.cmd === 'grant stones'
          ? { what: 'stones', type: input.type, count: input.count ?? 1 }
          : input.cmd === 'grant faces'
            ? { what: 'faces', count: input.count ?? 1, type: input.type, value: input.value, weight: input.weight, promo: input.promo }
            : input.cmd === 'grant mats'
              ? { what: 'mats', count: input.count ?? 1, name: input.name }
              : { what: 'credits', amount: input.amount };
      const got = await grant(ctx, { guildId, channelId: i.channelId, member: memberAuthority(i), moderatorId: i.user.id, player: input.player, grant: g });
      const credits = got.credits !== null ? ` They have ${got.credits} credits now.` : '';
      return reply(`✅ Granted <@${input.player.id}> ${grantText(g, got)}.${credits} They are told by DM.`);
    }
  }
}

/** Stones by alias or number (showing type and values), faces by number; sides of the stone chosen. */
async function autocomplete(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void> {
  if (!interaction.inGuild()) return respondChoices(interaction, []);
  const focused = interaction.options.getFocused(true);
  const group = interaction.options.getSubcommandGroup(false);
  const sub = interaction.options.getSubcommand(false);
  const cmd = group ? `${group} ${sub}` : sub;
  const typed = String(focused.value).trim().toLowerCase().replace(/^#/, '');
  const { stones, faces } = await pickables(deps.ctx, { guildId: interaction.guildId, playerId: interaction.user.id });
  const stoneOpt = () => {
    const ref = interaction.options.getString('stone') ?? '';
    const id = /^#?\d+$/.test(ref.trim()) ? Number(ref.trim().replace('#', '')) : null;
    return stones.find((s) => (id !== null ? s.id === id : s.alias?.toLowerCase() === ref.trim().toLowerCase()));
  };
  const faceOpt = () => faces.find((f) => String(f.id) === (interaction.options.getString('face') ?? '').trim().replace('#', ''));
  if (focused.name === 'stone') {
    let pool = stones;
    if (cmd === 'alias remove') pool = pool.filter((s) => s.alias !== null);
    if (cmd === 'unslot') pool = pool.filter((s) => s.slotted > 0);
    const face = cmd === 'slot' ? faceOpt() : undefined;
    if (face) pool = pool.filter((s) => s.type === face.type);
    const hits = pool.filter((s) => !typed || stoneChoice(s).toLowerCase().includes(typed));
    return respondChoices(interaction, hits.map((s) => ({ name: stoneChoice(s), value: String(s.id) })));
  }
  if (focused.name === 'face') {
    let pool = faces;
    if (cmd === 'tradein') pool = pool.filter((f) => f.promo);
    const stone = cmd === 'slot' ? stoneOpt() : undefined;
    if (stone) pool = pool.filter((f) => f.type === stone.type && !stone.values.includes(f.value));
    const hits = pool.filter((f) => !typed || `${f.id} ${faceName(f)}`.toLowerCase().includes(typed));
    return respondChoices(interaction, hits.map((f) => ({ name: `#${f.id} ${faceName(f)}`, value: String(f.id) })));
  }
  if (focused.name === 'side') {
    const stone = stoneOpt();
    if (!stone) return respondChoices(interaction, []);
    const d = await inspectStone(deps.ctx, { guildId: interaction.guildId, playerId: interaction.user.id, stone: String(stone.id) }).catch(() => null);
    if (!d) return respondChoices(interaction, []);
    if (cmd === 'unslot') {
      const sides = d.sides.filter((s) => s.face);
      const choices = [
        ...(sides.length ? [{ name: `All ${sides.length} slotted side${sides.length > 1 ? 's' : ''}`, value: 'all' }] : []),
        ...sides.map((s) => ({ name: `Side ${s.side}: face ${s.value} over printed ${s.printed}`, value: String(s.side) })),
      ];
      return respondChoices(interaction, choices.filter((c) => !typed || c.name.toLowerCase().includes(typed) || c.value === typed));
    }
    const face = faceOpt();
    const sides = d.sides.filter((s) => !s.face && !(face && d.sides.some((o) => o.side !== s.side && o.value === face.value)));
    return respondChoices(
      interaction,
      sides.filter((s) => !typed || String(s.side).startsWith(typed)).map((s) => ({ name: `Side ${s.side}: shows ${s.value}${face ? ` → ${face.value}` : ''}`, value: s.side })),
    );
  }
  return respondChoices(interaction, []);
}

export default defineCommand<Input>({ data, schema, read, execute, autocomplete });
