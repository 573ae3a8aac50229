import type { Harness } from '../helpers/harness.ts';

// The page helpers (a browser, a tab acting as a user, screenshots) come with the emulator package.
export * from '@stonehall/discord-emulator/playwright';

/**
 * The bot's first interactions after start-up are its slowest (connection pool, prepared queries,
 * JIT), and Discord gives it 3 real seconds. One throwaway command, repeated until answered, keeps
 * a busy machine's cold start out of what the tests measure.
 */
export async function warmUp(h: Harness): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const r = await h.api.command({ user: 'dave', channel: 'general', name: 'knucklebones games' });
    if (r.response) return;
  }
  throw new Error('the bot did not answer a slash command within its 3 seconds, five times in a row');
}

