import { describe, expect, it } from 'vitest';
import { compactRecord, leaderboardText, type Standing } from '../../src/services/leaderboard.ts';
import type { CycleWithSeason } from '../../src/services/cycles.ts';

/** Issue 13, feature 6: a leaderboard that reads on a phone, one short line per player. */
const cycle = { name: 'Cycle 2', status: 'ended', season: { name: 'Season 1' } } as unknown as CycleWithSeason;
const row = (playerId: string, o: Partial<Standing>): Standing => ({
  playerId,
  games: 0,
  wins: 0,
  draws: 0,
  losses: 0,
  forfeits: 0,
  points: null,
  rating: 1500,
  rd: 350,
  lastGameAt: new Date(0),
  ...o,
});

describe('compact leaderboard', () => {
  it.each([
    [{ wins: 3, losses: 1, forfeits: 0, draws: 0 }, '3–1'],
    [{ wins: 3, losses: 1, forfeits: 2, draws: 0 }, '3–3'],
    [{ wins: 0, losses: 0, forfeits: 0, draws: 2 }, '0–0–2'],
  ])('record %o reads %s', (r, expected) => {
    expect(compactRecord(r)).toBe(expected);
  });

  it('is one line per player: rank, name, W–L, rating; short enough for a phone', () => {
    const text = leaderboardText(cycle, 'knucklebones', [
      row('111', { games: 4, wins: 3, losses: 1, rating: 1662.4, rd: 200, points: 180 }),
      row('222', { games: 4, wins: 1, losses: 2, forfeits: 1, rating: 1401.6, rd: 210 }),
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('🏆 **Knucklebones leaderboard: Season 1 / Cycle 2** (final)');
    expect(lines[1]).toBe('1. <@111> 3–1 · **1662**');
    expect(lines[2]).toBe('2. <@222> 1–3 · **1402**');
    expect(lines[3]).toMatch(/^-# Wins–losses/);
    expect(text).not.toMatch(/pts|±/);
  });

  it('the detailed form keeps draws, forfeits, points and the deviation', () => {
    const text = leaderboardText(cycle, 'knucklebones', [row('111', { games: 4, wins: 3, losses: 1, rating: 1662.4, rd: 200, points: 180 })], { detailed: true });
    expect(text).toMatch(/1\. <@111>: rating \*\*1662\*\* \(±400\) · 4 games: 3 W, 0 D, 1 L, 0 F · 180 pts/);
  });
});
