import { SlashCommandBuilder, SlashCommandSubcommandBuilder } from '@discordjs/builders';
import { ApplicationCommandOptionType, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps, type CommandModule } from './command.ts';
import { joinOrIntend } from './cycle-commands.ts';
import { autocompleteGame, commonSubcommandSchemas, readCommon, readOpponent, runCommonSubcommand, withGameSubcommands, type CommonSubcommand } from './game-commands.ts';
import type { GameModule } from './game-module.ts';
import { displayName } from './interaction-utils.ts';

/**
 * A game's slash command from its module and its own subcommands: the standard join (challenge
 * one opponent, none for an open challenge, or in a Rest Phase up to `maxIntentOpponents` with a
 * mode), the shared subcommands (forfeit, games, view, history, practice, help), the user-option
 * schema, `read()` (every declared option by its type), the fall-through to the shared
 * subcommands and the autocomplete of the `game` option. A game's command module is then its own
 * subcommands and one call (commands/knucklebones.ts).
 */

/** A user named in an option, as the schemas validate it. */
export const userOption = z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() });

/** One of the game's own subcommands: its builder, the zod schema of its options (read by name), and what it does. */
export interface OwnSubcommand<Input extends { subcommand: string } = { subcommand: string }> {
  name: Input['subcommand'];
  /** Extends the shared subcommand of this name (`build` adds options to it) instead of adding one. */
  shared: boolean;
  build(s: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder;
  schema: z.ZodType<Input>;
  run(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void>;
}

/**
 * Declares a subcommand with its input typed by its schema. Without a description it extends the
 * shared subcommand of that name (`view` of Krellstones also takes a player): its options are added
 * after the shared ones, and its schema and `run` replace the shared ones.
 */
export function subcommand<Shape extends z.ZodRawShape & { subcommand: z.ZodLiteral<string> }>(def: {
  name: z.infer<Shape['subcommand']>;
  description?: string;
  options?(s: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder;
  schema: Shape;
  run(interaction: ChatInputCommandInteraction, input: z.infer<z.ZodObject<Shape>>, deps: BotDeps): Promise<void>;
}): OwnSubcommand {
  return {
    name: def.name as string,
    shared: def.description === undefined,
    build: (s) => (def.options ?? ((x) => x))(def.description === undefined ? s : s.setName(def.name as string).setDescription(def.description)),
    schema: z.object(def.schema) as unknown as z.ZodType<{ subcommand: string }>,
    run: def.run as unknown as OwnSubcommand['run'],
  };
}

/** The standard join subcommand's options: the opponent, more for a Rest Phase's intents, and their mode. */
function addJoin(s: SlashCommandSubcommandBuilder, module: GameModule): SlashCommandSubcommandBuilder {
  s.setName(module.joinSubcommand).setDescription('Challenge a player (or accept their challenge by naming them back).');
  s.addUserOption((o) => o.setName('opponent').setDescription('Who you want to play (none: an open challenge anyone here may accept)'));
  for (let i = 2; i <= module.maxIntentOpponents; i++) s.addUserOption((o) => o.setName(`opponent${i}`).setDescription('Rest Phase: another opponent you would play'));
  if (module.maxIntentOpponents > 1) {
    s.addStringOption((o) =>
      o
        .setName('mode')
        .setDescription('With several opponents: one game against any of them, or a game against each')
        .addChoices({ name: 'any: one game, whoever names me back first', value: 'any' }, { name: 'each: a game against every one who names me', value: 'each' }),
    );
  }
  return s;
}

export function gameCommand(
  module: GameModule,
  spec: {
    description: string;
    /** False: the game words its join itself, as one of its own subcommands named `module.joinSubcommand` (its options differ: a variant, required opponents, a host). */
    join?: boolean;
    subcommands?: OwnSubcommand[];
    /** Suggestions of the game's own options; the `game` option's are the platform's (`autocompleteGame`). */
    autocomplete?(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void>;
  },
): CommandModule<unknown> {
  const join = spec.join !== false;
  const own = spec.subcommands ?? [];
  const more = Array.from({ length: Math.max(0, module.maxIntentOpponents - 1) }, (_, i) => `opponent${i + 2}`);
  const joinSchema = z.object({
    subcommand: z.literal(module.joinSubcommand),
    // None: an open challenge, for anyone here to accept.
    opponent: userOption.optional(),
    more: z.array(userOption).max(more.length).default([]),
    mode: z.enum(['any', 'each']).nullable().default(null),
  });
  const common = commonSubcommandSchemas.filter((c) => !own.some((o) => o.name === c.shape.subcommand.value));
  const schemas = [...(join ? [joinSchema] : []), ...own.map((o) => o.schema), ...common] as unknown as [z.ZodObject<{ subcommand: z.ZodLiteral<string> }>];
  const schema = z.discriminatedUnion('subcommand', schemas);

  const builder = new SlashCommandBuilder().setName(module.kind).setDescription(spec.description).setDMPermission(false);
  if (join) builder.addSubcommand((s) => addJoin(s, module));
  for (const o of own.filter((x) => !x.shared)) builder.addSubcommand((s) => o.build(s));
  const data = withGameSubcommands(builder, module);
  for (const o of own.filter((x) => x.shared)) {
    const shared = data.options.find((x): x is SlashCommandSubcommandBuilder => x instanceof SlashCommandSubcommandBuilder && x.name === o.name);
    if (!shared) throw new Error(`/${module.kind}: no shared subcommand ${o.name} to extend`);
    o.build(shared);
  }

  // Every option the game's own subcommands declare, by name and type (read as discord.js resolves it).
  const declared = own.flatMap((o) => (o.build(new SlashCommandSubcommandBuilder().setName(o.name).setDescription(o.name)).toJSON().options ?? []).map((x) => ({ name: x.name, type: x.type })));
  const readOwn = (interaction: ChatInputCommandInteraction): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const { name, type } of declared) {
      if (name === 'game') continue;
      // The opponent of a game's own join: absent (an open challenge) or unresolved (refused), as the standard join reads it.
      if (name === 'opponent' && type === ApplicationCommandOptionType.User) {
        Object.assign(out, readOpponent(interaction));
        continue;
      }
      const key = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
      if (type === ApplicationCommandOptionType.Integer) out[key] = interaction.options.getInteger(name);
      else if (type === ApplicationCommandOptionType.Number) out[key] = interaction.options.getNumber(name);
      else if (type === ApplicationCommandOptionType.String) out[key] = interaction.options.getString(name);
      else if (type === ApplicationCommandOptionType.Boolean) out[key] = interaction.options.getBoolean(name);
      else if (type === ApplicationCommandOptionType.User) {
        const u = interaction.options.getUser(name);
        out[key] = u ? { id: u.id, name: displayName(u), bot: u.bot } : null;
      }
    }
    return out;
  };

  return defineCommand<unknown>({
    data,
    schema: schema as z.ZodType<unknown>,
    read: (interaction) => ({
      subcommand: interaction.options.getSubcommand(false),
      ...(join
        ? {
            ...readOpponent(interaction),
            more: more
              .map((n) => interaction.options.getUser(n))
              .filter((u) => u !== null)
              .map((u) => ({ id: u.id, name: displayName(u), bot: u.bot })),
            mode: interaction.options.getString('mode'),
          }
        : {}),
      ...readOwn(interaction),
      ...readCommon(interaction),
    }),
    async execute(interaction, raw, deps) {
      const input = raw as { subcommand: string } & Record<string, unknown>;
      if (join && input.subcommand === module.joinSubcommand) {
        const j = input as unknown as z.infer<typeof joinSchema>;
        return joinOrIntend(interaction, deps, module, [...(j.opponent ? [j.opponent] : []), ...j.more], j.mode);
      }
      const mine = own.find((o) => o.name === input.subcommand);
      if (mine) return mine.run(interaction, input, deps);
      return runCommonSubcommand(interaction, input as CommonSubcommand, deps, module);
    },
    autocomplete: (interaction, deps) =>
      spec.autocomplete && interaction.options.getFocused(true).name !== 'game'
        ? spec.autocomplete(interaction, deps)
        : autocompleteGame(interaction, deps, module, interaction.options.getSubcommand(false) === 'view'),
  });
}
