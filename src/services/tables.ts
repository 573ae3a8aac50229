import { z } from 'zod';
import type { Tx } from '../db/client.ts';
import type { GameTable, TableSeat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, startGame } from './games.ts';
import type { GameRow, PlayerRef } from './game-store.ts';
import { enqueue } from './notifications.ts';
import { ensureGuild, ensurePlayers, requireGameChannel } from './settings.ts';

/**
 * Tables (lobbies) for games of more than two seats, outside cycles: the host opens a table with
 * setup options and a seat count and takes seat 0; others take the next free seat with a button;
 * the join that fills the last seat starts the game in the same transaction. Seat order is join
 * order (clockwise; for Tellstones' King's Circle that is A1 B1 A2 B2).
 *
 * Concurrency: every change locks the table row (SELECT … FOR UPDATE), so two players racing for
 * the last seat are serialised: one starts the game, the other finds the table started. The
 * primary key (table, seat) and the unique (table, player) back this up in the database.
 *
 * A table that is not full within the server's table time (default 72 h, `/stonehall config
 * table-hours`) expires: a table-expiry job, written with the table, closes it, edits the table
 * message and DMs whoever sat down. A join and the expiry lock the same row, so exactly one wins.
 */

export type TableWithSeats = GameTable & { seats: TableSeat[] };

export interface JoinResult {
  table: TableWithSeats;
  /** Set when this join filled the table and started the game. */
  game: GameRow | null;
}


async function lockTable(tx: Tx, tableId: number, guildId: string | null): Promise<TableWithSeats> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM game_tables WHERE id = ${tableId} FOR UPDATE`;
  const table = rows.length
    ? await tx.gameTable.findUnique({ where: { id: tableId }, include: { seats: { orderBy: { seat: 'asc' } } } })
    : null;
  if (!table || (guildId !== null && table.guildId !== guildId)) throw new UserError('table/unknown', 'That table does not exist any more.');
  return table;
}

function requireOpen(table: GameTable): void {
  if (table.status === 'started') throw new UserError('table/started', `This table is full: game #${table.gameId} has started. Open a new table to play.`);
  if (table.status === 'expired') throw new UserError('table/expired', 'This table closed because its seats were not all taken in time. Open a new table to play.');
  if (table.status === 'declined') throw new UserError('table/declined', 'This table closed: one of the players named at it declined.');
  if (table.status !== 'open') throw new UserError('table/closed', 'This table was closed by its host. Open a new table to play.');
}

/** Opens a table; the host takes seat 0. */
export async function openTable(
  ctx: ServiceContext,
  input: {
    guildId: string;
    guildName?: string;
    channelId: string;
    kind: string;
    options?: unknown;
    /** The most seats: the game starts when they are all taken. */
    seatCount: number;
    /** With this many seated, the host may start early (a Start button). */
    minSeats?: number;
    /** A challenge of several: only these players may sit, each accepting with the button. */
    invited?: Array<PlayerRef & { bot?: boolean }>;
    host: PlayerRef & { bot?: boolean };
  },
): Promise<TableWithSeats> {
  const { engine, title } = ctx.games.require(input.kind);
  if (input.host.bot) throw new UserError('table/bot', 'Bots cannot play.');
  const players = engine.minPlayers === engine.maxPlayers ? `${engine.minPlayers}` : `${engine.minPlayers} to ${engine.maxPlayers}`;
  if (!Number.isInteger(input.seatCount) || input.seatCount < engine.minPlayers || input.seatCount > engine.maxPlayers) {
    throw new UserError('table/seats', `${title} is played by ${players} players.`);
  }
  if (input.minSeats !== undefined && (input.minSeats < engine.minPlayers || input.minSeats > input.seatCount)) {
    throw new UserError('table/seats', `${title} is played by ${players} players.`);
  }
  const invited = input.invited ?? [];
  for (const p of invited) {
    if (p.id === input.host.id) throw new UserError('table/self', 'You cannot name yourself. Name the players you want at your table.');
    if (p.bot) throw new UserError('table/bot', `${p.name} is a bot and cannot play. Name people in the server.`);
  }
  if (new Set(invited.map((p) => p.id)).size !== invited.length) throw new UserError('table/duplicate', 'You named someone twice. Name each player once.');
  if (invited.length && invited.length + 1 !== input.seatCount) throw new UserError('table/seats', `${title} is played by ${players} players.`);
  const options = engine.optionsSchema.safeParse(input.options ?? {});
  if (!options.success) throw new UserError('table/bad-options', `Those ${title} options are not valid.`);
  return inTransaction(ctx, async (tx) => {
    const guild = await ensureGuild(tx, input.guildId, input.guildName);
    requireGameChannel(guild, input.channelId);
    await ensurePlayers(tx, [input.host, ...invited]);
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + guild.tableOpenMinutes * 60_000);
    const table = await tx.gameTable.create({
      data: {
        guildId: input.guildId,
        channelId: input.channelId,
        kind: engine.id,
        options: options.data as object,
        seatCount: input.seatCount,
        minSeats: input.minSeats ?? null,
        invited: invited.map((p) => p.id),
        hostId: input.host.id,
        createdAt: now,
        expiresAt,
        seats: { create: [{ seat: 0, playerId: input.host.id, joinedAt: now }] },
      },
      include: { seats: { orderBy: { seat: 'asc' } } },
    });
    await tx.job.create({ data: { kind: 'table-expiry', dueAt: expiresAt, payload: { tableId: table.id }, createdAt: now } });
    return table;
  });
}

const expiryPayload = z.object({ tableId: z.number().int() });

/**
 * The table-expiry job (run by the scheduler inside its claiming transaction): closes the table
 * if it is still open, edits its message (through the outbox) and tells the seated players.
 * A table that started or was closed meanwhile is left alone.
 */
export async function expireTable(tx: Tx, ctx: ServiceContext, payload: unknown): Promise<string> {
  const { tableId } = expiryPayload.parse(payload);
  // Only "no such table" means there is nothing to expire; any other error fails the job (retried).
  const table = await lockTable(tx, tableId, null).catch((err: unknown) => {
    if (err instanceof UserError) return null;
    throw err;
  });
  if (!table) return 'table-gone';
  if (table.status !== 'open') return `table-${table.status}`;
  const now = ctx.clock.now();
  await tx.gameTable.update({ where: { id: table.id }, data: { status: 'expired', closedAt: now } });
  await enqueue(tx, 'table', { tableId: table.id }, now);
  const taken = `${table.seats.length} of ${table.seatCount} seats`;
  for (const seat of table.seats) {
    await enqueue(
      tx,
      'text-dm',
      {
        userId: seat.playerId,
        fallbackChannelId: table.channelId,
        content: `🪑 Table #${table.id} (${ctx.games.title(table.kind)}) closed: only ${taken} were taken in time, so no game started. Open a new table whenever you like.`,
      },
      now,
    );
  }
  return 'table-expired';
}

/** Remembers which message shows the table (it becomes the board when the game starts). */
export async function setTableMessage(ctx: ServiceContext, tableId: number, messageId: string): Promise<void> {
  await ctx.db.gameTable.updateMany({ where: { id: tableId, messageId: null }, data: { messageId } });
}

/**
 * A table's message is visible (and its Join button clickable) before the bot that posted it has
 * recorded its id: a click on it records the clicked message when none is recorded yet.
 */
async function recordClickedMessage(tx: Tx, table: TableWithSeats, messageId: string | undefined): Promise<TableWithSeats> {
  if (table.messageId || !messageId) return table;
  await tx.gameTable.update({ where: { id: table.id }, data: { messageId } });
  return { ...table, messageId };
}

/** Takes the next free seat; the join that fills the table starts the game (seat order = join order). */
export async function joinTable(
  ctx: ServiceContext,
  input: {
    tableId: number;
    guildId: string;
    guildName?: string;
    user: PlayerRef & { bot?: boolean };
    seed?: string;
    /** The message the Join was clicked on (the table's own), recorded if the bot has not yet. */
    messageId?: string;
  },
): Promise<JoinResult> {
  if (input.user.bot) throw new UserError('table/bot', 'Bots cannot play.');
  return inTransaction(ctx, async (tx) => {
    const table = await recordClickedMessage(tx, await lockTable(tx, input.tableId, input.guildId), input.messageId);
    requireOpen(table);
    if (table.seats.some((s) => s.playerId === input.user.id)) {
      throw new UserError(
        'table/already-seated',
        table.invited.length ? 'You are already at this table: wait for the others to accept.' : 'You already have a seat at this table. Wait for the others to join (or leave with the Leave button).',
      );
    }
    if (table.invited.length && !table.invited.includes(input.user.id)) {
      throw new UserError('table/not-invited', `This table is for ${table.invited.map((p) => `<@${p}>`).join(', ')}. Open your own with the game's join subcommand.`);
    }
    await ensurePlayers(tx, [input.user]);
    const now = ctx.clock.now();
    const seat = table.seats.length;
    await tx.tableSeat.create({ data: { tableId: table.id, seat, playerId: input.user.id, joinedAt: now } });
    const seats = [...table.seats, { tableId: table.id, seat, playerId: input.user.id, joinedAt: now }];
    if (seats.length < table.seatCount) return { table: { ...table, seats }, game: null };
    return startAtTable(tx, ctx, { ...table, seats }, { [input.user.id]: input.user.name }, input.guildName, input.seed);
  });
}

/** Starts the table's game with the players seated now (in the caller's transaction, table locked). */
async function startAtTable(tx: Tx, ctx: ServiceContext, table: TableWithSeats, names: Record<string, string>, guildName?: string, seed?: string): Promise<JoinResult> {
  const now = ctx.clock.now();
  const players = await tx.player.findMany({ where: { id: { in: table.seats.map((s) => s.playerId) } } });
  const name = (id: string) => names[id] ?? players.find((p) => p.id === id)?.name ?? id;
  const game = await startGame(tx, ctx, {
    guildId: table.guildId,
    ...(guildName !== undefined ? { guildName } : {}),
    channelId: table.channelId,
    kind: table.kind,
    players: table.seats.map((s) => ({ id: s.playerId, name: name(s.playerId) })),
    options: table.options,
    boardMessageId: table.messageId,
    ...(seed ? { seed } : {}),
  });
  const started = await tx.gameTable.update({
    where: { id: table.id },
    data: { status: 'started', gameId: game.id, closedAt: now },
    include: { seats: { orderBy: { seat: 'asc' } } },
  });
  return { table: started, game };
}

/** The host starts a table before it is full, once it seats its minimum. */
export async function startTableNow(ctx: ServiceContext, input: { tableId: number; guildId: string; userId: string; messageId?: string }): Promise<JoinResult> {
  return inTransaction(ctx, async (tx) => {
    const table = await recordClickedMessage(tx, await lockTable(tx, input.tableId, input.guildId), input.messageId);
    requireOpen(table);
    if (table.hostId !== input.userId) throw new UserError('table/not-host', `Only the host, <@${table.hostId}>, can start this table early.`);
    if (table.minSeats === null || table.seats.length < table.minSeats) {
      throw new UserError('table/too-few', `This table starts with ${table.minSeats ?? table.seatCount} players; ${table.seats.length} are seated. Wait for more to join.`);
    }
    return startAtTable(tx, ctx, table, {});
  });
}

/** An invited player declines: the table closes, and everyone at it is told. */
export async function declineTable(ctx: ServiceContext, input: { tableId: number; guildId: string; userId: string }): Promise<TableWithSeats> {
  return inTransaction(ctx, async (tx) => {
    const table = await lockTable(tx, input.tableId, input.guildId);
    requireOpen(table);
    if (!table.invited.includes(input.userId)) throw new UserError('table/not-invited', 'Only the players named at this table can decline it.');
    const now = ctx.clock.now();
    for (const seat of table.seats) {
      await enqueue(tx, 'text-dm', { userId: seat.playerId, fallbackChannelId: table.channelId, content: `❌ <@${input.userId}> declined table #${table.id} (${ctx.games.title(table.kind)}): no game starts. Name other players whenever you like.` }, now);
    }
    return tx.gameTable.update({ where: { id: table.id }, data: { status: 'declined', closedAt: now }, include: { seats: { orderBy: { seat: 'asc' } } } });
  });
}

/** A seated player leaves (later seats move up one); the host leaving closes the table. */
export async function leaveTable(
  ctx: ServiceContext,
  input: { tableId: number; guildId: string; userId: string; messageId?: string },
): Promise<TableWithSeats> {
  return inTransaction(ctx, async (tx) => {
    const table = await recordClickedMessage(tx, await lockTable(tx, input.tableId, input.guildId), input.messageId);
    requireOpen(table);
    const mine = table.seats.find((s) => s.playerId === input.userId);
    if (!mine) throw new UserError('table/not-seated', 'You have no seat at this table. Take one with the Join button.');
    const now = ctx.clock.now();
    if (input.userId === table.hostId) {
      return tx.gameTable.update({
        where: { id: table.id },
        data: { status: 'cancelled', closedAt: now },
        include: { seats: { orderBy: { seat: 'asc' } } },
      });
    }
    await tx.tableSeat.delete({ where: { tableId_seat: { tableId: table.id, seat: mine.seat } } });
    // Close the gap, lowest seat first, so (table, seat) stays unique at every step.
    for (const s of table.seats.filter((x) => x.seat > mine.seat)) {
      await tx.tableSeat.update({ where: { tableId_seat: { tableId: table.id, seat: s.seat } }, data: { seat: s.seat - 1 } });
    }
    return tx.gameTable.findUniqueOrThrow({ where: { id: table.id }, include: { seats: { orderBy: { seat: 'asc' } } } });
  });
}

export async function getTable(ctx: ServiceContext, tableId: number, guildId: string | null): Promise<TableWithSeats> {
  const table = await ctx.db.gameTable.findUnique({ where: { id: tableId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  if (!table || (guildId !== null && table.guildId !== guildId)) throw new UserError('table/unknown', 'That table does not exist any more.');
  return table;
}
