import type { AutocompleteInteraction, ChatInputCommandInteraction, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { z } from 'zod';
import type { ServiceContext } from '../services/context.ts';
import type { BotDeps } from './game-module.ts';

export type { BotDeps } from './game-module.ts';

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
