/**
 * The demo server Stonehall's playground and tests run on: the guild, channels, roles and people
 * that `npm start` (without DISCORD_TOKEN) shows, and that every test through the emulator acts
 * as. The emulator package knows nothing of Stonehall; this is where Stonehall describes itself to
 * it. Ids follow from the order here (README and docs/emulator.md list them): change the order and
 * bookmarks break.
 */
import { Permission, startEmulator, type Emulator, type EmulatorOptions, type ServerDefinition } from '@stonehall/discord-emulator';

export const demoServer = {
  bot: { username: 'Stonehall', description: 'Play-by-post tabletop games (local emulator)' },
  users: [
    { alias: 'owner', username: 'owner', globalName: 'Server Owner' },
    { alias: 'alice', username: 'alice', globalName: 'Alice' },
    { alias: 'bob', username: 'bob', globalName: 'Bob' },
    { alias: 'carol', username: 'carol', globalName: 'Carol' },
    { alias: 'dave', username: 'dave', globalName: 'Dave' },
    { alias: 'moderator', username: 'mod', globalName: 'Mod' },
  ],
  guilds: [
    {
      name: 'Stonehall Demo',
      // A separate owner, so that the moderator is not all-powerful (owners have every permission).
      owner: 'owner',
      channels: [
        { name: 'general', topic: 'Chat about anything.' },
        { name: 'battle-commencement', topic: 'Challenges and new games are announced here.' },
        { name: 'knucklebones', topic: 'Play Knucklebones here.' },
        { name: 'announcements', topic: 'Server news.' },
        { name: 'leaderboard', topic: 'Standings.' },
      ],
      roles: [{ name: 'Moderator', color: 0x3498db, hoist: true, mentionable: true, permissions: Permission.MANAGE_GUILD }],
      memberRoles: { moderator: ['Moderator'] },
    },
  ],
} as const satisfies ServerDefinition;

export type DemoEmulator = Emulator<typeof demoServer> & {
  /** The demo guild's "Moderator" role (MANAGE_GUILD). */
  moderatorRoleId: string;
};

/** An emulator serving the demo server. */
export async function startDemoEmulator(opts: Omit<EmulatorOptions, 'server'> = {}): Promise<DemoEmulator> {
  const emulator = await startEmulator({ ...opts, server: demoServer });
  return Object.assign(emulator, { moderatorRoleId: emulator.roles.Moderator });
}
