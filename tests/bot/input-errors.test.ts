import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { explainInvalidOption } from '../../src/bot/input-errors.ts';

/** Refusals of bad options read as sentences for players, never the validator's wording. */
const first = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  return explainInvalidOption(r.error.issues[0]);
};

describe('explaining a bad option', () => {
  const s = z.object({
    subcommand: z.literal('x'),
    name: z.string().trim().min(1),
    turnHours: z.number().max(336),
    mode: z.enum(['any', 'each']),
    role: z.string().regex(/^\d+$/),
    reminders: z.string().refine(() => false, 'Give up to six numbers of hours before the deadline, like `12, 4, 1`, or `off`.'),
  });
  const ok = { subcommand: 'x', name: 'a', turnHours: 1, mode: 'any', role: '1', reminders: '' };
  it.each([
    [{ ...ok, name: '' }, 'The `name` option cannot be empty.'],
    [{ ...ok, turnHours: 999 }, 'The `turn-hours` option must be at most 336.'],
    [{ ...ok, mode: 'every' }, 'The `mode` option must be one of `any`, `each`.'],
    [{ ...ok, role: 'admins' }, 'The `role` option is not written the way it should be: pick a suggestion, or check it.'],
    [{ ...ok, reminders: 'soon' }, 'Give up to six numbers of hours before the deadline, like `12, 4, 1`, or `off`.'],
    [{ subcommand: 'x' }, 'The `name` option is missing or of the wrong kind: give it as the command asks.'],
  ])('%j', (value, text) => {
    const said = first(s, value);
    expect(said).toBe(text);
    expect(said).not.toMatch(/expected|Invalid input|Too (small|big)|>=|<=|\.\.$/);
  });
});
