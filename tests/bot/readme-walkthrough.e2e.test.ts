import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * The README's "Playing from a terminal" walkthrough, run line by line exactly as written (through
 * sh, with `npm run -s emu`) against an emulator and bot on a fresh database: whoever rolls first,
 * the game is played by clicking and ends when the idle player's turn runs out.
 */
const run = promisify(execFile);
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

function walkthrough(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Playing from a terminal'));
  const block = section.slice(section.indexOf('```sh') + 5, section.indexOf('```', section.indexOf('```sh') + 5));
  return block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

describe('README walkthrough', () => {
  // Each line of the walkthrough starts a Node process (scripts/emu.mjs), one after another: about
  // 0.3 s each on a quiet machine, several seconds each with two whole test runs side by side (it
  // ran out of the default 30 s there once in six runs), so the test has the time of its processes.
  it('works as written on a fresh database', async () => {
    const lines = walkthrough();
    expect(lines.length).toBeGreaterThanOrEqual(8);
    const outputs: string[] = [];
    for (const line of lines) {
      const { stdout } = await run('sh', ['-c', line], { cwd: new URL('../..', import.meta.url).pathname, env: { ...process.env, EMULATOR_URL: h.emulator.url } });
      outputs.push(stdout);
      await h.settle();
    }
    const [challenge, bobButtons, accept, move1, move2, board] = outputs;
    expect(challenge).toMatch(/challenges you to \*\*Knucklebones\*\*/);
    expect(bobButtons).toMatch(/"Accept"\s+ch:accept:\d+/);
    expect(accept).toMatch(/bob clicked "Accept"/);
    expect(move1).toMatch(/clicked "Column 2" \(DM\)/);
    expect(move2).toMatch(/clicked "Column 1" \(DM\)/);
    expect(board).toMatch(/@(Alice vs @Bob|Bob vs @Alice)/);
    const game = await h.db.prisma.game.findFirstOrThrow({ orderBy: { id: 'desc' } });
    const moves = await h.db.prisma.move.count({ where: { gameId: game.id, actorId: { not: 'system' } } });
    expect(moves).toBe(2);
    expect(game.status).toBe('finished');
    expect(outputs.at(-1)).toMatch(/🏆 @(Alice|Bob) wins on time: @(Alice|Bob)’s turn ran out\. Score: @(Alice|Bob) \d+ · @(Alice|Bob) \d+\./);
  }, 120_000);
});
