import { createHash } from 'node:crypto';
import { newStone } from '../../../src/games/krellstones/collection.ts';
import type { StoneType } from '../../../src/games/krellstones/data.ts';
import { ASSET, type OwnedStone } from '../../../src/games/krellstones/assets.ts';
import { rngFromSeed } from '../../../src/kernel/rng.ts';
import { assetsOf, type OwnedAsset } from '../../../src/services/assets.ts';
import type { ServiceContext } from '../../../src/services/context.ts';
import { ensurePlayers } from '../../../src/services/settings.ts';

/**
 * Stones for tests: created directly as the player's assets (what a claimed kit or a moderator's
 * grant would leave), generated with the collection's own `newStone` from a seeded generator, so
 * every run gives the same stones.
 */

export const LOADOUT_TYPES: StoneType[] = ['pawn', 'dancer', 'krell', 'krell', 'krell', 'master'];

export async function giveStones(
  ctx: ServiceContext,
  input: { guildId: string; player: { id: string; name: string }; seed: string; types?: StoneType[]; mat?: boolean; aliases?: Array<string | null> },
): Promise<{ stones: Array<OwnedAsset<OwnedStone>>; mat: OwnedAsset | null }> {
  let r = rngFromSeed(createHash('sha256').update(`test-stones:${input.seed}`).digest('hex'));
  const assets = assetsOf(ctx, 'krellstones');
  return ctx.db.$transaction(async (tx) => {
    await ensurePlayers(tx, [input.player]);
    const stones: Array<OwnedAsset<OwnedStone>> = [];
    for (const [i, type] of (input.types ?? LOADOUT_TYPES).entries()) {
      const [st, next] = newStone(type, r);
      r = next;
      stones.push(await assets.create<OwnedStone>(tx, { guildId: input.guildId, playerId: input.player.id, type: ASSET.stone, data: { ...st, alias: input.aliases?.[i] ?? null } }));
    }
    const mat = input.mat ? await assets.create(tx, { guildId: input.guildId, playerId: input.player.id, type: ASSET.mat, data: { name: 'Modern Krellstones' } }) : null;
    return { stones, mat };
  });
}
