import { randomBytes } from 'node:crypto';
import type { Interaction, RepliableInteraction } from 'discord.js';
import { RuleError } from '../kernel/types.ts';
import { UserError } from '../services/errors.ts';
import type { BotDeps, CommandModule } from './command.ts';
import { handleComponent } from './components.ts';
import { handleGameModal } from './game-routes.ts';
import { explainInvalidOption } from './input-errors.ts';
import { EPHEMERAL } from './interaction-utils.ts';

/**
 * Routes every interaction and owns the one error path: a UserError (or an engine RuleError)
 * becomes an ephemeral message saying what to do; anything else is logged with an error id and
 * the user gets a short apology quoting it.
 */
export function createRouter(commands: Record<string, CommandModule<never>>, deps: BotDeps) {
  const inFlight = new Set<Promise<void>>();
  const route = (interaction: Interaction): Promise<void> => {
    const p = handle(interaction).finally(() => inFlight.delete(p));
    inFlight.add(p);
    return p;
  };
  /** Resolves once every interaction being handled now is done (their transactions committed or rolled back). */
  const idle = async () => {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  };
  return Object.assign(route, { idle });

  async function handle(interaction: Interaction): Promise<void> {
    const started = process.hrtime.bigint();
    let ok = true;
    try {
      if (interaction.isChatInputCommand()) {
        const command = commands[interaction.commandName];
        if (!command) throw new UserError('input/unknown-command', `Stonehall has no /${interaction.commandName} command any more.`);
        // Declared for servers only (Discord hides it in DMs; a client may still send it).
        if (!interaction.inGuild() && command.data.toJSON().dm_permission === false) {
          throw new UserError('input/guild-only', `\`/${interaction.commandName}\` works in a server channel, not in DMs.`);
        }
        let options: unknown;
        try {
          options = command.read(interaction);
        } catch {
          // discord.js throws on an option of the wrong type (an integer sent as text).
          throw new UserError('input/invalid', 'One of the options is not of the kind the command takes. Pick the options from Discord’s suggestions and try again.');
        }
        const parsed = command.schema.safeParse(options);
        if (!parsed.success) {
          throw new UserError('input/invalid', explainInvalidOption(parsed.error.issues[0]));
        }
        await command.execute(interaction, parsed.data as never, deps);
      } else if (interaction.isAutocomplete()) {
        const command = commands[interaction.commandName];
        if (command?.autocomplete) await command.autocomplete(interaction, deps);
        else await interaction.respond([]);
      } else if (interaction.isMessageComponent()) {
        await handleComponent(interaction, deps);
      } else if (interaction.isModalSubmit()) {
        if (!(await handleGameModal(interaction, deps))) throw new UserError('input/unknown-modal', 'That form is not one of Stonehall’s current forms. Open it again from the board.');
      } else if (interaction.isRepliable()) {
        throw new UserError('input/unsupported', 'Stonehall does not handle that kind of interaction.');
      }
    } catch (err) {
      ok = false;
      await reportError(interaction, err, deps);
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const type = interaction.isChatInputCommand() ? 'command' : interaction.isMessageComponent() ? 'component' : interaction.isAutocomplete() ? 'autocomplete' : 'other';
      const replyMs = deps.replyTimer?.take(interaction.id, started) ?? null;
      deps.onHandled?.({ type, ms, replyMs, ok });
      deps.ctx.log.debug({ interaction: interaction.id, type, ms, replyMs, ok }, 'interaction handled');
    }
  }
}

async function reportError(interaction: Interaction, err: unknown, deps: BotDeps): Promise<void> {
  let content: string;
  if (err instanceof UserError || err instanceof RuleError) {
    content = `⚠️ ${err.message}`;
    if (err.code === 'game/unknown') content += ` ${unknownGameHint(interaction, deps)}`;
    deps.ctx.log.info({ interaction: interaction.id, user: interaction.user.id, code: err.code }, 'refused');
  } else {
    const errorId = randomBytes(4).toString('hex');
    content = `😵 Something went wrong on our side (error id \`${errorId}\`). Nothing was changed by it; please try again.`;
    deps.ctx.log.error({ err, errorId, interaction: interaction.id, user: interaction.user.id, type: interaction.type }, 'interaction failed');
  }
  if (!interaction.isRepliable()) {
    if (interaction.isAutocomplete() && !interaction.responded) await interaction.respond([]).catch(() => {});
    return;
  }
  const r = interaction as RepliableInteraction;
  try {
    if (r.replied || r.deferred) await r.followUp({ content, flags: EPHEMERAL });
    else await r.reply({ content, flags: EPHEMERAL });
  } catch (replyErr) {
    deps.ctx.log.warn({ err: replyErr, interaction: interaction.id }, 'could not deliver the error message');
  }
}

/**
 * What to do about a game number that is not in this server: list the games of the command (or
 * the button's game) the player used, not every game's commands.
 */
function unknownGameHint(interaction: Interaction, deps: BotDeps): string {
  const kind = interaction.isChatInputCommand()
    ? interaction.commandName
    : interaction.isMessageComponent() || interaction.isModalSubmit()
      ? deps.games.all.find((g) => g.ids.prefix === interaction.customId.split(':')[0])?.kind
      : undefined;
  const module = kind ? deps.games.get(kind) : undefined;
  return module ? `List yours with \`/${module.kind} games\`.` : 'A game’s number is in the title of its board.';
}
