import { describe, expect, it } from 'vitest';
import type { CrystalliaState } from '../../src/games/crystallia/engine/index.ts';
import { openPhase, startCycle, startSeason } from '../../src/services/cycles.ts';
import { stateIntent } from '../../src/services/intents.ts';
import { testContext, withServiceDb } from '../helpers/context.ts';

/** Crystallia through cycles, like every game: a pair's intents and a whole table's (`together`) become games when the Battle Phase begins. */
const GUILD = '730000000000000001';
const COMMENCE = '730000000000000002';
const mod = { manageGuild: true, roleIds: [] };
const p = (n: number, name: string) => ({ id: `73100000000000000${n}`, name, bot: false });
const [a, b, c, d, e] = [p(1, 'Ann'), p(2, 'Ben'), p(3, 'Cat'), p(4, 'Dan'), p(5, 'Eve')] as const;

const db = withServiceDb();

describe('Crystallia in a cycle', () => {
  it('a pair and a table of three named in a Rest Phase play when the Battle Phase begins, with the standard rules', async () => {
    const ctx = testContext(db);
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'S' });
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'C', defaults: { commencementChannelId: COMMENCE, announcementChannelId: COMMENCE, leaderboardChannelId: COMMENCE } });
    const intent = (from: typeof a, opponents: Array<typeof a>, mode: 'together' | null = null) =>
      stateIntent(ctx, { guildId: GUILD, channelId: COMMENCE, channelName: null, kind: 'crystallia', from, opponents, mode });
    await intent(a, [b]);
    expect((await intent(b, [a])).matched).toHaveLength(1);
    await intent(c, [d, e], 'together');
    await intent(d, [c, e], 'together');
    expect((await intent(e, [c, d], 'together')).matched).toHaveLength(1);
    const phase = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    expect(phase.changed && phase.games).toHaveLength(2);
    const games = await db.prisma.game.findMany({ where: { kind: 'crystallia' }, include: { seats: true }, orderBy: { id: 'asc' } });
    expect(games.map((g) => g.seats.map((s) => s.playerId).sort())).toEqual([[a.id, b.id], [c.id, d.id, e.id]]);
    for (const g of games) {
      expect(g.cycleId).not.toBeNull();
      expect(g.options).toEqual({ advanced: false });
      const s = g.state as unknown as CrystalliaState;
      expect(s.turn?.player).toBeDefined();
      // Three players: three chaos and three regular tiles, as for two.
      expect(s.tiles.filter((t) => t.id.startsWith('C'))).toHaveLength(3);
    }
  });
});
