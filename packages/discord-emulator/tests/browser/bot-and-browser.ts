import { Client, GatewayIntentBits, REST, Routes } from 'discord.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { silentLogger, startEmulator, type Emulator } from '../../src/index.ts';
import { closeContexts, runBrowserTests, sharedBrowser } from '../../src/playwright.ts';

/** What a browser test of the playground drives: the emulator, a tiny discord.js bot of the test's own on it, and Chromium. */
export interface BotAndBrowser {
  emulator: Emulator;
  client: Client;
  browser: Browser;
}

/**
 * Registers the file's beforeAll and afterAll: start an emulator, make a discord.js client on its
 * REST address, let `prepare` register the file's commands and handlers, log in, and take the
 * process's Chromium (sharedBrowser) while the client waits for clientReady; after, close the
 * file's pages, the client and the emulator. The returned object is
 * filled in by the beforeAll, so read its fields inside tests and later hooks only. Does nothing
 * when browser tests are off.
 */
export function botAndBrowser(prepare?: (emulator: Emulator, client: Client) => Promise<void> | void): BotAndBrowser {
  const setup = {} as BotAndBrowser;
  beforeAll(async () => {
    if (!runBrowserTests) return;
    setup.emulator = await startEmulator({ logger: silentLogger });
    setup.client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: setup.emulator.apiBase } });
    await prepare?.(setup.emulator, setup.client);
    const ready = new Promise((resolve) => setup.client.once('clientReady', resolve));
    await setup.client.login(setup.emulator.botToken);
    [setup.browser] = await Promise.all([sharedBrowser(), ready]);
  });
  afterAll(async () => {
    await closeContexts(setup.browser);
    await setup.client?.destroy();
    await setup.emulator?.close();
  });
  return setup;
}

/** Registers `commands` (Discord's JSON) as the test guild's slash commands, through REST as a bot does. */
export async function registerCommands(emulator: Emulator, commands: unknown[]): Promise<void> {
  const rest = new REST({ api: emulator.apiBase }).setToken(emulator.botToken);
  await rest.put(Routes.applicationGuildCommands(emulator.applicationId, emulator.guildId), { body: commands });
}
