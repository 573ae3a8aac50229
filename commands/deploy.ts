import { REST, Routes } from 'discord.js';
import { commandPayloads } from './index.ts';

/**
 * Registers the slash commands (bulk overwrite): for one guild when guildId is given (instant),
 * otherwise globally. Run by `npm run deploy-commands`, not on every start-up; the embedded
 * emulator forgets its state between runs, so `npm start` registers there itself. `body`: other
 * commands than these (the test harness with a fixture game's).
 */
export async function deployCommands(opts: { token: string; applicationId: string; guildId?: string; apiBase?: string; body?: unknown[] }): Promise<number> {
  const rest = new REST(opts.apiBase ? { api: opts.apiBase } : {}).setToken(opts.token);
  const body = opts.body ?? commandPayloads();
  const route = opts.guildId ? Routes.applicationGuildCommands(opts.applicationId, opts.guildId) : Routes.applicationCommands(opts.applicationId);
  const result = (await rest.put(route, { body })) as unknown[];
  return result.length;
}
