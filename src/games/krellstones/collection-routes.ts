import { ButtonStyle, MessageFlags, type MessageComponentInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCollectionRoutes, idArg, type MessagePayload } from '../../bot/game-module.ts';
import { updateOwned } from '../../bot/game-routes.ts';
import { UserError } from '../../services/errors.ts';
import { faceName } from './collection-text.ts';
import { PRICES } from './data.ts';
import { trashFace, type FaceDetail } from './inventory.ts';

/**
 * The collection's buttons (`kc:<action>:<face>`), tied to no game: the confirmation of
 * `/krellstone trash`. The id carries only the face; the clicker is the owner, so a forged id can
 * only ever reach the clicker's own faces. The module lists these as its `collectionRoutes`.
 */
const owned = (i: MessageComponentInteraction) => i.message.flags.has(MessageFlags.Ephemeral);

function guildOf(i: MessageComponentInteraction): string {
  if (!i.inGuild()) throw new UserError('input/guild-only', 'Faces belong to a server: use the button in the server.');
  return i.guildId;
}

export const collectionRoutes = defineCollectionRoutes('kc', {
  trash: {
    args: z.tuple([idArg]),
    async handle(interaction, [faceId], deps) {
      const face = await trashFace(deps.ctx, { guildId: guildOf(interaction), playerId: interaction.user.id, faceId: faceId as number });
      await updateOwned(interaction, owned(interaction), { content: `🗑️ Face #${face.id} (${faceName(face)}) is gone for good.`, components: [] });
    },
  },
  keep: {
    args: z.tuple([idArg]),
    async handle(interaction, [faceId]) {
      await updateOwned(interaction, owned(interaction), { content: `👍 Face #${String(faceId)} stays in your collection.`, components: [] });
    },
  },
});

/** The question `/krellstone trash` asks, with its two buttons. */
export function trashConfirmation(face: FaceDetail): MessagePayload {
  const promo = face.promo ? `\nIt is a promo face: \`/krellstone tradein face:${face.id}\` gives ${PRICES.promoTradeIn} credits for it instead.` : '';
  return {
    content: `🗑️ Trash face #${face.id} (${faceName(face)})? It will be gone for good.${promo}`,
    components: [
      {
        type: 1,
        components: [
          { type: 2, style: ButtonStyle.Danger, label: `Trash face #${face.id}`, custom_id: collectionRoutes.make('trash', face.id) },
          { type: 2, style: ButtonStyle.Secondary, label: 'Keep it', custom_id: collectionRoutes.make('keep', face.id) },
        ],
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
