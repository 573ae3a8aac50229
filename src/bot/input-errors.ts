import type { z } from 'zod';

/**
 * A slash command's options that fail their zod schema, said as a sentence a player understands
 * (never the validator's own words): which option, and what it needs. Schemas name options in
 * camelCase; players see them as Discord shows them (`turn-hours`).
 */
export function explainInvalidOption(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'One of the options is not valid. Check them and try again.';
  const key = issue.path.find((p): p is string => typeof p === 'string' && p !== 'subcommand');
  const option = key ? `\`${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}\`` : 'an option';
  const i = issue as z.core.$ZodIssue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint; values?: unknown[]; input?: unknown };
  switch (issue.code) {
    case 'invalid_type':
      return `The ${option} option is missing or of the wrong kind: give it as the command asks.`;
    case 'too_small':
      if (i.origin === 'string') return Number(i.minimum) <= 1 ? `The ${option} option cannot be empty.` : `The ${option} option needs at least ${i.minimum} characters.`;
      if (i.origin === 'array') return `Give at least ${i.minimum} for ${option}.`;
      return `The ${option} option must be at least ${i.minimum}.`;
    case 'too_big':
      if (i.origin === 'string') return `The ${option} option can have at most ${i.maximum} characters.`;
      if (i.origin === 'array') return `Give at most ${i.maximum} for ${option}.`;
      return `The ${option} option must be at most ${i.maximum}.`;
    case 'invalid_value':
      return `The ${option} option must be one of ${(i.values ?? []).map((v) => `\`${String(v)}\``).join(', ')}.`;
    case 'invalid_format':
      return `The ${option} option is not written the way it should be: pick a suggestion, or check it.`;
    case 'custom':
      // Our own refinements are written as sentences for players.
      return /[.!?]$/.test(issue.message) ? issue.message : `The ${option} option is not valid: ${issue.message}.`;
    default:
      return `The ${option} option is not valid. Check it and try again.`;
  }
}
