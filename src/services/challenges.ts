import type { Tx } from '../db/client.ts';
import type { Challenge } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, startGame } from './games.ts';
import type { GameRow } from './game-store.ts';
import { ensureGuild, ensurePlayers, requireGameChannel, requireMoveTime } from './settings.ts';

export interface Challenger {
  id: string;
  name: string;
  bot: boolean;
}

export type ChallengeResult = { type: 'challenge'; challenge: Challenge } | { type: 'started'; challenge: Challenge; game: GameRow };

/**
 * `/<game> join @opponent` outside cycles: a challenge, or, when the opponent already challenged
 * the invoker, the acceptance of that challenge (the game starts at once).
 */
export async function challenge(
  ctx: ServiceContext,
  input: {
    guildId: string;
    guildName?: string;
    channelId: string;
    kind: string;
    from: Challenger;
    /** Null: an open challenge, for anyone in the server to accept. */
    to: Challenger | null;
    /** Setup options (e.g. Tellstones' variant), kept on the challenge and given to startGame. */
    options?: unknown;
    /** The time per move the challenger chose, in minutes (within the server's limits); absent: the server's turn limit. */
    turnLimitMinutes?: number | null;
    seed?: string;
  },
): Promise<ChallengeResult> {
  const { from, to } = input;
  if (to === null) return openChallenge(ctx, { ...input, to: null });
  if (from.id === to.id) throw new UserError('challenge/self', 'You cannot challenge yourself. Name another player in the server.');
  if (to.bot) throw new UserError('challenge/bot', `${to.name} is a bot and cannot play. Name a person in the server.`);
  return inTransaction(ctx, async (tx) => {
    await lockPair(tx, input.guildId, input.kind, from.id, to.id);
    const guild = await ensureGuild(tx, input.guildId, input.guildName);
    await ensurePlayers(tx, [from, to]);
    const reverse = await tx.challenge.findFirst({
      where: { guildId: input.guildId, kind: input.kind, status: 'open', challengerId: to.id, opponentId: from.id },
    });
    const now = ctx.clock.now();
    if (reverse) {
      const game = await startGame(tx, ctx, {
        guildId: input.guildId,
        channelId: reverse.channelId,
        kind: input.kind,
        players: [to, from],
        options: reverse.options,
        turnLimitMinutes: reverse.turnLimitMinutes,
        boardMessageId: reverse.messageId,
        ...(input.seed ? { seed: input.seed } : {}),
      });
      const closed = await tx.challenge.update({ where: { id: reverse.id }, data: { status: 'accepted', gameId: game.id, closedAt: now } });
      return { type: 'started', challenge: closed, game };
    }
    const existing = await tx.challenge.findFirst({
      where: { guildId: input.guildId, kind: input.kind, status: 'open', challengerId: from.id, opponentId: to.id },
    });
    if (existing) {
      throw new UserError('challenge/already-open', `You have already challenged ${to.name}; they can accept with the button on your challenge.`);
    }
    // A new challenge starts its game in this channel (answering one starts it where it was made).
    requireGameChannel(guild, input.channelId);
    if (input.turnLimitMinutes != null) requireMoveTime(guild, input.turnLimitMinutes);
    const created = await tx.challenge.create({
      data: {
        guildId: input.guildId,
        channelId: input.channelId,
        kind: input.kind,
        challengerId: from.id,
        opponentId: to.id,
        options: checkOptions(ctx, input.kind, input.options) as object,
        turnLimitMinutes: input.turnLimitMinutes ?? null,
        createdAt: now,
      },
    });
    return { type: 'challenge', challenge: created };
  });
}

/**
 * `/<game> join` without an opponent: a challenge anyone in the server but the challenger may
 * accept; the first Accept starts the game. One open challenge per player and game at a time.
 */
async function openChallenge(
  ctx: ServiceContext,
  input: { guildId: string; guildName?: string; channelId: string; kind: string; from: Challenger; to: null; options?: unknown; turnLimitMinutes?: number | null },
): Promise<ChallengeResult> {
  const def = ctx.games.require(input.kind);
  const options = checkOptions(ctx, input.kind, input.options);
  if (def.engine.minPlayers > 2) {
    throw new UserError('challenge/open-two', `${def.title} needs ${def.engine.minPlayers} or more players: name them with \`/${input.kind} ${def.joinSubcommand}\`.`);
  }
  return inTransaction(ctx, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`challenge:open:${input.guildId}:${input.kind}:${input.from.id}`}))`;
    const guild = await ensureGuild(tx, input.guildId, input.guildName);
    // As for a named challenge: only where the server lets games start, and a time per move within its limits.
    requireGameChannel(guild, input.channelId);
    if (input.turnLimitMinutes != null) requireMoveTime(guild, input.turnLimitMinutes);
    await ensurePlayers(tx, [input.from]);
    const existing = await tx.challenge.findFirst({ where: { guildId: input.guildId, kind: input.kind, status: 'open', challengerId: input.from.id, opponentId: null } });
    if (existing) {
      throw new UserError('challenge/open-already', `You already have an open ${def.title} challenge waiting for someone to accept. To take it back, click **Withdraw** on it.`);
    }
    const created = await tx.challenge.create({
      data: {
        guildId: input.guildId,
        channelId: input.channelId,
        kind: input.kind,
        challengerId: input.from.id,
        opponentId: null,
        options: options as object,
        turnLimitMinutes: input.turnLimitMinutes ?? null,
        createdAt: ctx.clock.now(),
      },
    });
    return { type: 'challenge', challenge: created };
  });
}

/**
 * Remembers which message shows the challenge (it becomes the board when accepted). The reply that
 * created the message is visible before the bot learns its id, so the challenge may already be
 * closed by then: an Accept click records the clicked message itself (see acceptChallenge), but a
 * challenge answered by challenging back started its game without this message. The caller gets
 * the challenge as it is now, and the game's board message, to tidy its reply in that case.
 */
export async function setChallengeMessage(
  ctx: ServiceContext,
  challengeId: number,
  messageId: string,
): Promise<{ challenge: Challenge; boardMessageId: string | null } | null> {
  await ctx.db.challenge.updateMany({ where: { id: challengeId, messageId: null }, data: { messageId } });
  const ch = await ctx.db.challenge.findUnique({ where: { id: challengeId } });
  if (!ch) return null;
  const game = ch.gameId ? await ctx.db.game.findUnique({ where: { id: ch.gameId }, select: { boardMessageId: true } }) : null;
  return { challenge: ch, boardMessageId: game?.boardMessageId ?? null };
}

async function lockChallenge(tx: Tx, challengeId: number, guildId: string): Promise<Challenge> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM challenges WHERE id = ${challengeId} FOR UPDATE`;
  const ch = rows.length ? await tx.challenge.findUnique({ where: { id: challengeId } }) : null;
  if (!ch || ch.guildId !== guildId) throw new UserError('challenge/unknown', 'That challenge does not exist any more.');
  return ch;
}

/**
 * Serialises challenges between one pair (two simultaneous ones can neither both open nor both
 * start a game) and refuses a second active game between them.
 */
async function lockPair(tx: Tx, guildId: string, kind: string, a: string, b: string): Promise<void> {
  const key = `challenge:${guildId}:${kind}:${[a, b].sort().join(':')}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
  const active = await tx.game.findFirst({
    where: { guildId, kind, status: 'active', AND: [{ seats: { some: { playerId: a } } }, { seats: { some: { playerId: b } } }] },
  });
  if (active) {
    throw new UserError('challenge/already-playing', `You two already have a game in progress (#${active.id}). Finish it first: \`/${kind} games\`.`);
  }
}

const notYours = (ctx: ServiceContext, kind: string) =>
  new UserError('challenge/not-yours', `This challenge is not addressed to you. Challenge someone yourself with \`/${kind} ${ctx.games.get(kind)?.joinSubcommand ?? 'join'}\`.`);

/** Options are checked when the challenge is made, so an accepted challenge always starts. */
function checkOptions(ctx: ServiceContext, kind: string, options: unknown): unknown {
  const def = ctx.games.require(kind);
  const parsed = def.engine.optionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw new UserError('challenge/bad-options', `Those ${def.title} options are not valid.`);
  return parsed.data;
}

export async function acceptChallenge(
  ctx: ServiceContext,
  input: {
    challengeId: number;
    userId: string;
    guildId: string;
    seed?: string;
    names?: Record<string, string>;
    /**
     * The message the Accept was clicked on: the challenge's own message. It becomes the board
     * when the challenge has no message recorded yet (a click that beat the bot's bookkeeping).
     */
    messageId?: string;
  },
): Promise<{ challenge: Challenge; game: GameRow }> {
  return inTransaction(ctx, async (tx) => {
    const ch = await lockChallenge(tx, input.challengeId, input.guildId);
    const open = ch.opponentId === null;
    if (ch.challengerId === input.userId) {
      throw new UserError(
        'challenge/own',
        open
          ? 'This is your own open challenge: it waits for someone else to accept. To take it back, click **Withdraw**.'
          : `This is your own challenge: it waits for <@${ch.opponentId}> to accept. To take it back, click **Decline**.`,
      );
    }
    if (!open && ch.opponentId !== input.userId) throw notYours(ctx, ch.kind);
    if (ch.status !== 'open') {
      if (open && ch.status === 'accepted') {
        throw new UserError('challenge/taken', `Someone was quicker: this challenge was taken${ch.gameId ? ` (game #${ch.gameId})` : ''}. Open one yourself with \`/${ch.kind} ${ctx.games.get(ch.kind)?.joinSubcommand ?? 'join'}\`.`);
      }
      throw new UserError('challenge/closed', `This challenge was already ${ch.status}.`);
    }
    const opponentId = ch.opponentId ?? input.userId;
    await lockPair(tx, ch.guildId, ch.kind, ch.challengerId, opponentId);
    if (open) await ensurePlayers(tx, [{ id: opponentId, name: input.names?.[opponentId] ?? opponentId }]);
    const players = await tx.player.findMany({ where: { id: { in: [ch.challengerId, opponentId] } } });
    const name = (id: string) => input.names?.[id] ?? players.find((p) => p.id === id)?.name ?? id;
    const boardMessageId = ch.messageId ?? input.messageId ?? null;
    const game = await startGame(tx, ctx, {
      guildId: ch.guildId,
      channelId: ch.channelId,
      kind: ch.kind,
      players: [
        { id: ch.challengerId, name: name(ch.challengerId) },
        { id: opponentId, name: name(opponentId) },
      ],
      options: ch.options,
      turnLimitMinutes: ch.turnLimitMinutes,
      boardMessageId,
      ...(input.seed ? { seed: input.seed } : {}),
    });
    const closed = await tx.challenge.update({
      where: { id: ch.id },
      // An open challenge keeps no opponent (it stays open in kind); the game's seats say who took it.
      data: { status: 'accepted', gameId: game.id, closedAt: ctx.clock.now(), messageId: boardMessageId },
    });
    return { challenge: closed, game };
  });
}

/** The opponent declines, or the challenger withdraws. */
export async function declineChallenge(ctx: ServiceContext, input: { challengeId: number; userId: string; guildId: string }): Promise<Challenge> {
  return inTransaction(ctx, async (tx) => {
    const ch = await lockChallenge(tx, input.challengeId, input.guildId);
    if (ch.opponentId === null && ch.challengerId !== input.userId) {
      throw new UserError('challenge/open-not-yours', `This is <@${ch.challengerId}>’s open challenge: only they can withdraw it. Click **Accept** to play them, or just leave it.`);
    }
    if (ch.opponentId !== input.userId && ch.challengerId !== input.userId) throw notYours(ctx, ch.kind);
    if (ch.status !== 'open') throw new UserError('challenge/closed', `This challenge was already ${ch.status}.`);
    const status = ch.opponentId === input.userId ? 'declined' : 'cancelled';
    return tx.challenge.update({ where: { id: ch.id }, data: { status, closedAt: ctx.clock.now() } });
  });
}
