import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client.ts';
import type { Guild, Intent, Match } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { cycleTitle, lockActiveCycle, lockGuild, type CycleWithSeason } from './locks.ts';
import { UserError } from './errors.ts';
import { inTransaction } from './games.ts';
import type { GameDefinition } from './registry.ts';
import { ensurePlayers } from './settings.ts';

/**
 * Intents (RULINGS.md, Commencement). One statement = one transaction, serialised with every
 * other statement and phase change of the server by the guild-row lock (then the cycle row), so
 * matching is decided in the database one statement at a time: two players naming each other at
 * the same instant make exactly one match, and an `any` statement can never match twice. The
 * unique (phase, kind, player_a, player_b) index on matches backs this up.
 */

export type IntentMode = 'any' | 'each' | 'together';
export interface Named {
  id: string;
  name: string;
  bot: boolean;
}

export const DEFAULT_COMMENCEMENT = 'battle-commencement';

const pair = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

export function commencementWhere(guild: Pick<Guild, 'commencementChannelId'>): string {
  return guild.commencementChannelId ? `<#${guild.commencementChannelId}>` : `#${DEFAULT_COMMENCEMENT}`;
}

async function currentRestPhase(tx: Tx, guild: Guild, cycle: CycleWithSeason | null) {
  if (!cycle) {
    throw new UserError(
      'intent/no-cycle',
      `No cycle is running right now. Intents are taken in ${commencementWhere(guild)} during a cycle's Rest Phase; watch the announcements for the next one.`,
    );
  }
  if (cycle.phase !== 'rest') {
    throw new UserError(
      'intent/not-rest',
      `${cycleTitle(cycle)} is in its Battle Phase. Intents are taken in ${commencementWhere(guild)} during the next Rest Phase; watch the announcements.`,
    );
  }
  return tx.phase.findUniqueOrThrow({ where: { cycleId_seq: { cycleId: cycle.id, seq: cycle.phaseSeq } } });
}

export interface StatementResult {
  cycle: CycleWithSeason;
  statement: string;
  mode: IntentMode;
  /** Intents created by this statement (with their final status). */
  intents: Intent[];
  /** Opponents named again while an intent to them is already open or matched (nothing new). */
  repeated: string[];
  /** Matches made by this statement. */
  matched: Match[];
  /** Every match of the invoker in this Rest Phase (for "your matches so far"). */
  allMatches: Match[];
}

/** The players of a match, in id order (a pair's two, or a group's every member). */
export const matchPlayers = (m: Pick<Match, 'players' | 'playerA' | 'playerB'>): string[] => (m.players.length ? m.players : [m.playerA, m.playerB]);

/**
 * Which mode a statement of `count` opponents has in a game for `min`..`max` players: two-player
 * games pair (any/each); games of three or more need `together` (one game with everyone named);
 * games of two to four take either, and a single opponent is a pair.
 */
function resolveMode(def: GameDefinition, count: number, mode: IntentMode | null): IntentMode {
  const { minPlayers: min, maxPlayers: max } = def.engine;
  const range = min === max ? `${min - 1}` : `${min - 1} to ${max - 1}`;
  if (min >= 3) {
    if (mode && mode !== 'together') throw new UserError('intent/mode', `${def.title} is one game for ${min === max ? min : `${min} to ${max}`} players: \`mode\` does not apply, name everyone you want at your table.`);
    if (count + 1 < min || count + 1 > max) throw new UserError('intent/group-size', `${def.title} is played by ${min === max ? min : `${min} to ${max}`}: name ${range} opponents, who must all name the same table.`);
    return 'together';
  }
  if (mode === 'together') {
    if (max < 3) throw new UserError('intent/mode', `${def.title} is a game for two: name one opponent, or several with \`mode: any\` or \`mode: each\`.`);
    if (count + 1 > max) throw new UserError('intent/group-size', `A game of ${def.title} seats at most ${max}: name at most ${max - 1} opponents with \`mode: together\`.`);
    return 'together';
  }
  if (count > 1 && !mode) {
    throw new UserError(
      'intent/mode',
      `You named several opponents: add \`mode: any\` (one game, against whichever of them names you)${max >= 3 ? ', `mode: together` (one game with all of them, when they all name the same table)' : ''} or \`mode: each\` (a game against every one of them who names you).`,
    );
  }
  return mode ?? 'each';
}

/**
 * A game's join subcommand (`/<game> join`) during a Rest Phase in the commencement channel. Each
 * named opponent gets an intent. Pairs (`any`, `each`): an intent matches when the opponent has an
 * open intent naming the invoker; with `any`, the earliest mutual intent wins (the opponent whose
 * intent naming the invoker came first) and the rest of the statement is void for this phase; with
 * `each`, every mutual intent matches; a pair matches at most once per Rest Phase. Groups
 * (`together`, games of three or more): the invoker and the named opponents are a table; it matches
 * when every member has an open `together` statement naming exactly the others of that table;
 * a table matches at most once per Rest Phase.
 */
export async function stateIntent(
  ctx: ServiceContext,
  input: {
    guildId: string;
    guildName?: string;
    channelId: string;
    channelName: string | null;
    kind: string;
    from: Named;
    opponents: Named[];
    mode: IntentMode | null;
  },
): Promise<StatementResult> {
  const { from } = input;
  const seen = new Set<string>();
  for (const o of input.opponents) {
    if (o.id === from.id) throw new UserError('intent/self', 'You cannot name yourself. Name the players you want to play.');
    if (o.bot) throw new UserError('intent/bot', `${o.name} is a bot and cannot play. Name people in the server.`);
    if (seen.has(o.id)) throw new UserError('intent/duplicate', `You named ${o.name} twice. Name each opponent once.`);
    seen.add(o.id);
  }
  if (input.opponents.length === 0) throw new UserError('intent/none', 'Name at least one opponent.');
  const def = ctx.games.require(input.kind);
  const mode = resolveMode(def, input.opponents.length, input.mode);
  if (mode === 'together') return stateGroupIntent(ctx, input);
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId, input.guildName);
    const cycle = await lockActiveCycle(tx, guild.id);
    const phase = await currentRestPhase(tx, guild, cycle);
    const inCommencement = guild.commencementChannelId ? input.channelId === guild.commencementChannelId : input.channelName === DEFAULT_COMMENCEMENT;
    if (!inCommencement) {
      throw new UserError('intent/wrong-channel', `Intents are taken in ${commencementWhere(guild)} during a Rest Phase. Run \`/${input.kind} ${ctx.games.get(input.kind)?.joinSubcommand ?? 'join'}\` there.`);
    }
    await ensurePlayers(tx, [from, ...input.opponents]);
    await checkIntent(tx, ctx, input, phase.id);
    const now = ctx.clock.now();
    const statement = randomUUID();
    const intents: Intent[] = [];
    const repeated: string[] = [];
    const matched: Match[] = [];

    // Skip opponents already named in an open intent or already matched with this phase.
    const fresh: Named[] = [];
    for (const o of input.opponents) {
      const [a, b] = pair(from.id, o.id);
      const existing = await tx.intent.findFirst({ where: { phaseId: phase.id, kind: input.kind, playerId: from.id, opponentId: o.id, status: 'open' } });
      const already = await tx.match.findUnique({ where: { phaseId_kind_players: { phaseId: phase.id, kind: input.kind, players: [a, b] } } });
      if (existing || already) repeated.push(o.id);
      else fresh.push(o);
    }
    for (const o of fresh) {
      intents.push(
        await tx.intent.create({
          data: { phaseId: phase.id, statement, playerId: from.id, opponentId: o.id, kind: input.kind, mode, createdAt: now },
        }),
      );
    }
    // Candidates: open intents naming the invoker from the named opponents, earliest first.
    const reverse = await tx.intent.findMany({
      where: { phaseId: phase.id, kind: input.kind, status: 'open', opponentId: from.id, playerId: { in: fresh.map((o) => o.id) } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    for (const theirs of reverse) {
      const mine = intents.find((i) => i.opponentId === theirs.playerId && i.status === 'open');
      if (!mine) continue;
      const [a, b] = pair(from.id, theirs.playerId);
      const match = await tx.match.create({
        data: { phaseId: phase.id, kind: input.kind, playerA: a, playerB: b, players: [a, b], channelId: input.channelId, createdAt: now },
      });
      matched.push(match);
      await tx.intent.updateMany({ where: { id: { in: [mine.id, theirs.id] } }, data: { status: 'matched', matchId: match.id, closedAt: now } });
      mine.status = 'matched';
      mine.matchId = match.id;
      if (theirs.mode === 'any') {
        await tx.intent.updateMany({ where: { statement: theirs.statement, status: 'open' }, data: { status: 'void', closedAt: now } });
      }
      if (mode === 'any') {
        await tx.intent.updateMany({ where: { statement, status: 'open' }, data: { status: 'void', closedAt: now } });
        for (const i of intents) if (i.status === 'open') i.status = 'void';
        break;
      }
    }
    const allMatches = await tx.match.findMany({ where: { phaseId: phase.id, players: { has: from.id } }, orderBy: { id: 'asc' } });
    return { cycle: cycle!, statement, mode, intents, repeated, matched, allMatches };
  });
}

/** A `together` statement: the invoker's table, matched when every member named exactly this table. */
async function stateGroupIntent(ctx: ServiceContext, input: Parameters<typeof stateIntent>[1]): Promise<StatementResult> {
  const { from } = input;
  const group = [from.id, ...input.opponents.map((o) => o.id)].sort();
  const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId, input.guildName);
    const cycle = await lockActiveCycle(tx, guild.id);
    const phase = await currentRestPhase(tx, guild, cycle);
    const inCommencement = guild.commencementChannelId ? input.channelId === guild.commencementChannelId : input.channelName === DEFAULT_COMMENCEMENT;
    if (!inCommencement) {
      throw new UserError('intent/wrong-channel', `Intents are taken in ${commencementWhere(guild)} during a Rest Phase. Run \`/${input.kind} ${ctx.games.get(input.kind)?.joinSubcommand ?? 'join'}\` there.`);
    }
    await ensurePlayers(tx, [from, ...input.opponents]);
    const now = ctx.clock.now();
    // Each member's open `together` statements of this game, as tables (the member and whom they named).
    const open = await tx.intent.findMany({ where: { phaseId: phase.id, kind: input.kind, mode: 'together', status: 'open', playerId: { in: group } }, orderBy: { id: 'asc' } });
    const tables = new Map<string, { player: string; members: string[]; ids: number[] }>();
    for (const i of open) {
      const t = tables.get(i.statement) ?? { player: i.playerId, members: [i.playerId], ids: [] };
      t.members.push(i.opponentId);
      t.ids.push(i.id);
      tables.set(i.statement, t);
    }
    const namesThis = (player: string) => [...tables.entries()].find(([, t]) => t.player === player && sameSet([...t.members].sort(), group));
    const already = await tx.match.findUnique({ where: { phaseId_kind_players: { phaseId: phase.id, kind: input.kind, players: group } } });
    const allMatches = () => tx.match.findMany({ where: { phaseId: phase.id, players: { has: from.id } }, orderBy: { id: 'asc' } });
    if (already || namesThis(from.id)) {
      return { cycle: cycle!, statement: namesThis(from.id)?.[0] ?? '', mode: 'together', intents: [], repeated: input.opponents.map((o) => o.id), matched: [], allMatches: await allMatches() };
    }
    await checkIntent(tx, ctx, input, phase.id);
    const statement = randomUUID();
    const intents: Intent[] = [];
    for (const o of input.opponents) {
      intents.push(await tx.intent.create({ data: { phaseId: phase.id, statement, playerId: from.id, opponentId: o.id, kind: input.kind, mode: 'together', createdAt: now } }));
    }
    const matched: Match[] = [];
    const others = group.filter((p) => p !== from.id).map(namesThis);
    if (others.every((x) => x !== undefined)) {
      const match = await tx.match.create({
        data: { phaseId: phase.id, kind: input.kind, playerA: group[0]!, playerB: group[1]!, players: group, channelId: input.channelId, createdAt: now },
      });
      matched.push(match);
      const ids = [...intents.map((i) => i.id), ...others.flatMap((x) => x![1].ids)];
      await tx.intent.updateMany({ where: { id: { in: ids } }, data: { status: 'matched', matchId: match.id, closedAt: now } });
      for (const i of intents) {
        i.status = 'matched';
        i.matchId = match.id;
      }
    }
    return { cycle: cycle!, statement, mode: 'together', intents, repeated: [], matched, allMatches: await allMatches() };
  });
}

/**
 * The game's own check of an intent (GameDefinition.checkIntent), in the statement's transaction:
 * `first` when none of the named players has an open intent naming the invoker yet.
 */
async function checkIntent(tx: Tx, ctx: ServiceContext, input: { guildId: string; kind: string; from: Named; opponents: Named[] }, phaseId: number): Promise<void> {
  const def = ctx.games.require(input.kind);
  if (!def.checkIntent) return;
  const earlier = await tx.intent.count({ where: { phaseId, kind: input.kind, status: 'open', opponentId: input.from.id, playerId: { in: input.opponents.map((o) => o.id) } } });
  await def.checkIntent(tx, ctx, { guildId: input.guildId, playerId: input.from.id, opponents: input.opponents.map((o) => o.id), first: earlier === 0 });
}

/** The invoker's intents of the current Rest Phase (or of the cycle's last one). */
export async function listOwnIntents(ctx: ServiceContext, input: { guildId: string; userId: string }): Promise<{ cycle: CycleWithSeason | null; intents: Intent[] }> {
  const cycle = await ctx.db.cycle.findFirst({ where: { guildId: input.guildId, status: 'active' }, include: { season: true } });
  if (!cycle) return { cycle: null, intents: [] };
  const phase = await ctx.db.phase.findFirst({ where: { cycleId: cycle.id, kind: 'rest' }, orderBy: { seq: 'desc' } });
  if (!phase) return { cycle, intents: [] };
  const intents = await ctx.db.intent.findMany({ where: { phaseId: phase.id, playerId: input.userId }, orderBy: { id: 'asc' } });
  return { cycle, intents };
}

/** Withdraws the invoker's open intent(s) naming `opponentId` (or all open ones) in the Rest Phase. */
export async function withdrawIntents(
  ctx: ServiceContext,
  input: { guildId: string; userId: string; opponentId: string | null },
): Promise<Intent[]> {
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    const cycle = await lockActiveCycle(tx, guild.id);
    const phase = await currentRestPhase(tx, guild, cycle);
    const where = { phaseId: phase.id, playerId: input.userId, status: 'open', ...(input.opponentId ? { opponentId: input.opponentId } : {}) };
    const named = await tx.intent.findMany({ where, orderBy: { id: 'asc' } });
    // A `together` intent is one table: withdrawing one of its players withdraws the whole statement.
    const tables = [...new Set(named.filter((i) => i.mode === 'together').map((i) => i.statement))];
    const open = tables.length
      ? await tx.intent.findMany({ where: { OR: [{ id: { in: named.map((i) => i.id) } }, { statement: { in: tables }, status: 'open' }] }, orderBy: { id: 'asc' } })
      : named;
    if (open.length === 0) {
      const matched = input.opponentId
        ? await tx.intent.findFirst({ where: { phaseId: phase.id, playerId: input.userId, opponentId: input.opponentId, status: 'matched' } })
        : null;
      throw matched
        ? new UserError('intent/already-matched', 'That intent already matched: your game starts when the Battle Phase begins. A match cannot be withdrawn.')
        : new UserError('intent/none-open', 'You have no open intent to withdraw. See yours with `/intents list`.');
    }
    await tx.intent.updateMany({ where: { id: { in: open.map((i) => i.id) } }, data: { status: 'withdrawn', closedAt: ctx.clock.now() } });
    return open;
  });
}

/** The public list of matches waiting for the next Battle Phase. */
export async function pendingMatches(ctx: ServiceContext, guildId: string): Promise<{ cycle: CycleWithSeason | null; matches: Match[] }> {
  const cycle = await ctx.db.cycle.findFirst({ where: { guildId, status: 'active' }, include: { season: true } });
  if (!cycle) return { cycle: null, matches: [] };
  const matches = await ctx.db.match.findMany({ where: { gameId: null, phase: { cycleId: cycle.id } }, orderBy: { id: 'asc' } });
  return { cycle, matches };
}
