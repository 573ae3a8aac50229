import { z } from 'zod';
import { checkStone, faceSchema, stoneShape } from './collection.ts';

/**
 * What a Krellstones player owns between games, stored as owned assets (src/services/assets.ts)
 * of the game `krellstones`, one row per thing: each `stone` and `face` is its own asset (its
 * asset id is its id everywhere players see it), each `mat` too; `wallet` is one row per player
 * (credits, and how many free starter kits they claimed). The module registers these schemas as
 * its `assets`, so every row is validated whenever it is read or written.
 */
export const ASSET = { stone: 'stone', face: 'face', mat: 'mat', wallet: 'wallet' } as const;

/** A stone: the collection's stone (type and sides, each with its slotted face) and its alias. */
export const ownedStoneSchema = z
  .object({ ...stoneShape, alias: z.string().min(1).max(32).nullable().default(null) })
  .strict()
  .superRefine(checkStone);
export type OwnedStone = z.infer<typeof ownedStoneSchema>;

/** A mat: a name to pick it by when hosting. */
export const matSchema = z.object({ name: z.string().min(1).max(40) }).strict();
export type Mat = z.infer<typeof matSchema>;

/** A player's credits and the free starter kits they claimed. */
export const walletSchema = z.object({ credits: z.number().int().min(0), freeKitsClaimed: z.number().int().min(0) }).strict();
export type Wallet = z.infer<typeof walletSchema>;

export const krellstonesAssets: Record<string, z.ZodType> = {
  [ASSET.stone]: ownedStoneSchema,
  [ASSET.face]: faceSchema,
  [ASSET.mat]: matSchema,
  [ASSET.wallet]: walletSchema,
};
