import type { ServiceContext } from '../../services/context.ts';
import { UserError } from '../../services/errors.ts';
import { gameHistory } from '../../services/history.ts';
import type { KrellstonesView } from './engine/index.ts';
import { lengthText } from './present.ts';

const clock = (d: Date) => `<t:${Math.floor(d.getTime() / 1000)}:T>`;
const relative = (d: Date) => `<t:${Math.floor(d.getTime() / 1000)}:R>`;

/**
 * A yell after one's own Pup in the Hangar window closed (`krellstones/window-closed`): the refusal
 * says when the window closed and how long it was open, read from the game's log (the steps that
 * opened and closed it, with their times). Any other error is returned as it is.
 */
export async function explainLateYell(ctx: ServiceContext, gameId: number, guildId: string, userId: string, err: unknown): Promise<unknown> {
  if (!(err instanceof UserError) || err.code !== 'krellstones/window-closed') return err;
  const { steps } = await gameHistory(ctx, gameId, guildId);
  let opened: Date | null = null;
  let closed: Date | null = null;
  for (const st of steps) {
    const before = st.before as KrellstonesView | null;
    const after = st.after as KrellstonesView | null;
    if (!after) continue;
    const was = before?.windows.includes(userId) ?? false;
    const is = after.windows.includes(userId);
    if (!was && is) {
      opened = st.at;
      closed = null;
    } else if (was && !is) closed = st.at;
  }
  if (!opened || !closed) return err;
  const open = lengthText(Math.max(0, closed.getTime() - opened.getTime()));
  return new UserError(
    err.code,
    `Too late: your Pup in the Hangar window closed at ${clock(closed)} (${relative(closed)}), after ${open} (the window lasts the pace's yell time, cut short when the rolling ends). Your Master stays on its lowest side.`,
  );
}

/** The clicker's own Pup window of this round has closed (they did not yell in time). */
export function yellIsLate(view: KrellstonesView, userId: string): boolean {
  const mine = (effect: string) => view.announcements.some((a) => a.effect === effect && a.player === userId && a.pass === 0);
  return !view.windows.includes(userId) && mine('pup') && !mine('captain');
}
