import type { AutocompleteInteraction, ChatInputCommandInteraction, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { z } from 'zod';
import type { ServiceContext } from '../services/context.ts';

export interface BotDeps {
  ctx: ServiceContext;
  /**
   * Called after each interaction is handled (the bench measures click-to-reply with it):
   * `replyMs` from receiving the interaction to Discord accepting the reply, `ms` to the end
   * of the handler (including bookkeeping after the reply).
   */
  onHandled?: (e: { type: 'command' | 'component' | 'autocomplete' | 'other'; ms: number; replyMs: number | null; ok: boolean }) => void;
  replyTimer?: { take(interactionId: string, started: bigint): number | null };
  /** Cycles: re-reads the phase schedule after a moderator changed it. */
  phaseSchedule?: { reload(): Promise<void> };
}

/** One slash command: builder, zod schema for its options, handler (GUIDE.md). */
export interface CommandModule<Input = unknown> {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  schema: z.ZodType<Input>;
  /** Reads the interaction's options into the shape `schema` validates. */
  read(interaction: ChatInputCommandInteraction): unknown;
  execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void>;
}

export function defineCommand<Input>(m: CommandModule<Input>): CommandModule<Input> {
  return m;
}
