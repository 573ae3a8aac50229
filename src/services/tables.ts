import { z } from 'zod';
import type { Tx } from '../db/client.ts';
import type { GameTable, TableSeat } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, startGame } from './games.ts';
import type { GameRow, PlayerRef } from './game-store.ts';
import type { GameDefinition, LobbyHooks, LobbySeat } from './registry.ts';
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
    /** A lobby's host seat: what the host opens with (Krellstones: the mat). */
    hostData?: unknown;
  },
): Promise<TableWithSeats> {
  const def = ctx.games.require(input.kind);
  const { engine, title } = def;
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
        seats: { create: [{ seat: 0, playerId: input.host.id, joinedAt: now, ...lobbyData(def, { host: true, hostData: input.hostData }) }] },
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
    if (ctx.games.require(table.kind).lobby) {
      // A lobby's seat holds what the player brings: one lobby of a game at a time.
      const other = await tx.gameTable.findFirst({ where: { guildId: table.guildId, kind: table.kind, status: 'open', id: { not: table.id }, seats: { some: { playerId: input.user.id } } } });
      if (other) throw new UserError('table/elsewhere', `You are already at table #${other.id}: leave it first.`);
      await ctx.games.require(table.kind).lobby?.checkJoin?.(tx, ctx, { guildId: table.guildId, playerId: input.user.id, options: table.options });
    }
    await ensurePlayers(tx, [input.user]);
    const now = ctx.clock.now();
    const seat = table.seats.length;
    const created = await tx.tableSeat.create({ data: { tableId: table.id, seat, playerId: input.user.id, joinedAt: now, ...lobbyData(ctx.games.require(table.kind), { host: false }) } });
    const seats = [...table.seats, created];
    // A lobby starts when everyone is ready, not when it is full; its message is redrawn (a join may be typed).
    if (ctx.games.require(table.kind).lobby) {
      await enqueue(tx, 'table', { tableId: table.id }, now);
      return { table: { ...table, seats }, game: null };
    }
    if (seats.length < table.seatCount) return { table: { ...table, seats }, game: null };
    return startAtTable(tx, ctx, { ...table, seats }, { [input.user.id]: input.user.name }, input.guildName, input.seed);
  });
}

/** Starts the table's game with the players seated now (in the caller's transaction, table locked). */
async function startAtTable(tx: Tx, ctx: ServiceContext, table: TableWithSeats, names: Record<string, string>, guildName?: string, seed?: string): Promise<JoinResult> {
  const now = ctx.clock.now();
  const players = await tx.player.findMany({ where: { id: { in: table.seats.map((s) => s.playerId) } } });
  const name = (id: string) => names[id] ?? players.find((p) => p.id === id)?.name ?? id;
  const lobby = ctx.games.require(table.kind).lobby;
  const prepared = lobby
    ? await lobby.prepareStart(tx, ctx, { guildId: table.guildId, hostId: table.hostId, options: table.options, seats: table.seats.map(lobbySeat) })
    : {};
  const game = await startGame(tx, ctx, {
    guildId: table.guildId,
    ...(guildName !== undefined ? { guildName } : {}),
    channelId: table.channelId,
    kind: table.kind,
    players: table.seats.map((s) => ({ id: s.playerId, name: name(s.playerId) })),
    options: prepared.options ?? table.options,
    ...(prepared.playerData ? { playerData: prepared.playerData } : {}),
    boardMessageId: table.messageId,
    ...(seed ? { seed } : {}),
  });
  await prepared.afterStart?.(tx, game.id);
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
    if (ctx.games.require(table.kind).lobby) throw new UserError('table/not-ready', 'This game starts by itself when every player seated is ready.');
    if (table.minSeats === null || table.seats.length < table.minSeats) {
      throw new UserError('table/too-few', `This table starts with ${table.minSeats ?? table.seatCount} players; ${table.seats.length} are seated. Wait for more to join.`);
    }
    return startAtTable(tx, ctx, table, {});
  });
}

/** An invited player declines: the table closes, and everyone at it is told. */
export async function declineTable(ctx: ServiceContext, input: { tableId: number; guildId: string; userId: string; messageId?: string }): Promise<TableWithSeats> {
  return inTransaction(ctx, async (tx) => {
    const table = await recordClickedMessage(tx, await lockTable(tx, input.tableId, input.guildId), input.messageId);
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
    // A lobby may be left by a typed command: its message is redrawn.
    if (ctx.games.require(table.kind).lobby) await enqueue(tx, 'table', { tableId: table.id }, now);
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

// ---------------------------------------------------------------------------------------------
// Lobbies: tables of games whose seats bring something and say they are ready (GameDefinition.lobby).

const lobbySeat = (s: TableSeat): LobbySeat => ({ playerId: s.playerId, data: s.data, ready: s.ready });

function lobbyData(def: GameDefinition, input: { host: boolean; hostData?: unknown }): { data?: object } {
  return def.lobby ? { data: def.lobby.initialData(input) as object } : {};
}

function requireLobby(ctx: ServiceContext, table: GameTable): LobbyHooks {
  const lobby = ctx.games.require(table.kind).lobby;
  if (!lobby) throw new UserError('table/no-lobby', `${ctx.games.title(table.kind)} tables have nothing to choose before the start.`);
  return lobby;
}

/** The open table of `kind` in this server where `playerId` sits (or hosts, with `hostOnly`), if any. */
export async function findOpenTable(ctx: ServiceContext, input: { guildId: string; kind: string; playerId: string; hostOnly?: boolean }): Promise<TableWithSeats | null> {
  return ctx.db.gameTable.findFirst({
    where: {
      guildId: input.guildId,
      kind: input.kind,
      status: 'open',
      ...(input.hostOnly ? { hostId: input.playerId } : { seats: { some: { playerId: input.playerId } } }),
    },
    orderBy: { id: 'desc' },
    include: { seats: { orderBy: { seat: 'asc' } } },
  });
}

/**
 * A seated player changes what they bring (a stone selected, a sideboard stone added): `change`
 * gets the seat and returns its new data (a UserError refuses; nothing changes). The seat is no
 * longer ready: they confirm again.
 */
export async function changeSeat(
  ctx: ServiceContext,
  input: { tableId: number; guildId: string; userId: string; change: (tx: Tx, seat: LobbySeat, table: TableWithSeats) => Promise<unknown> },
): Promise<TableWithSeats> {
  return inTransaction(ctx, async (tx) => {
    const table = await lockTable(tx, input.tableId, input.guildId);
    requireOpen(table);
    requireLobby(ctx, table);
    const seat = table.seats.find((s) => s.playerId === input.userId);
    if (!seat) throw new UserError('table/not-seated', `You are not at table #${table.id}. Join it first.`);
    const data = await input.change(tx, lobbySeat(seat), table);
    await tx.tableSeat.update({ where: { tableId_seat: { tableId: table.id, seat: seat.seat } }, data: { data: data as object, ready: false } });
    await enqueue(tx, 'table', { tableId: table.id }, ctx.clock.now());
    return tx.gameTable.findUniqueOrThrow({ where: { id: table.id }, include: { seats: { orderBy: { seat: 'asc' } } } });
  });
}

/**
 * The host changes the table's options before the start (`change` returns the new options, checked
 * with the engine's schema). Every seat must confirm again: the rules they were ready for changed.
 */
export async function changeTableOptions(
  ctx: ServiceContext,
  input: { tableId: number; guildId: string; userId: string; change: (options: unknown) => unknown },
): Promise<TableWithSeats> {
  return inTransaction(ctx, async (tx) => {
    const table = await lockTable(tx, input.tableId, input.guildId);
    requireOpen(table);
    if (table.hostId !== input.userId) throw new UserError('table/not-host', `Only the host, <@${table.hostId}>, sets the rules of table #${table.id}.`);
    const { engine, title } = ctx.games.require(table.kind);
    const options = engine.optionsSchema.safeParse(input.change(table.options));
    if (!options.success) throw new UserError('table/bad-options', `Those ${title} options are not valid.`);
    await tx.gameTable.update({ where: { id: table.id }, data: { options: options.data as object } });
    await tx.tableSeat.updateMany({ where: { tableId: table.id }, data: { ready: false } });
    await enqueue(tx, 'table', { tableId: table.id }, ctx.clock.now());
    return tx.gameTable.findUniqueOrThrow({ where: { id: table.id }, include: { seats: { orderBy: { seat: 'asc' } } } });
  });
}

/**
 * READY at a lobby: the game completes and checks what the seat brings (a refusal changes
 * nothing); when at least the engine's minimum is seated and every seat is ready, the game starts
 * in the same transaction.
 */
export async function readySeat(ctx: ServiceContext, input: { tableId: number; guildId: string; userId: string; messageId?: string; seed?: string }): Promise<JoinResult> {
  return inTransaction(ctx, async (tx) => {
    const table = await recordClickedMessage(tx, await lockTable(tx, input.tableId, input.guildId), input.messageId);
    requireOpen(table);
    const lobby = requireLobby(ctx, table);
    const seat = table.seats.find((s) => s.playerId === input.userId);
    if (!seat) throw new UserError('table/not-seated', `You are not at table #${table.id}. Join it first.`);
    if (seat.ready) throw new UserError('table/already-ready', 'You are already ready: the game starts when everyone seated is.');
    const data = await lobby.ready(tx, ctx, { guildId: table.guildId, options: table.options, seat: lobbySeat(seat) });
    const updated = await tx.tableSeat.update({ where: { tableId_seat: { tableId: table.id, seat: seat.seat } }, data: { data: data as object, ready: true } });
    const seats = table.seats.map((s) => (s.seat === seat.seat ? updated : s));
    const { engine } = ctx.games.require(table.kind);
    if (seats.length < engine.minPlayers || seats.some((s) => !s.ready)) {
      await enqueue(tx, 'table', { tableId: table.id }, ctx.clock.now());
      return { table: { ...table, seats }, game: null };
    }
    return startAtTable(tx, ctx, { ...table, seats }, {}, undefined, input.seed);
  });
}
