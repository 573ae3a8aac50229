import { CronExpressionParser } from 'cron-parser';
import cron, { type ScheduledTask } from 'node-cron';
import type { ServiceContext } from '../services/context.ts';
import { currentPhase, openPhase, type PhaseKind } from '../services/cycles.ts';
import { UserError } from '../services/errors.ts';

/**
 * The per-server phase schedule (RULINGS.md, Commencement): node-cron tasks, in each server's
 * time zone, that open a Rest or Battle phase through the same idempotent service a moderator's
 * `/cycle phase` uses, so a scheduled change and a hand change at the same moment make one phase.
 *
 * Schedules live in the database (guilds.rest_cron / battle_cron / time_zone). On start, and every
 * minute after (so every bot process picks up a change made through another), the tasks are
 * re-created from the database when they differ.
 *
 * A change that fell due while no bot process ran (a restart across Friday 18:00) is caught up at
 * the next start or minute: when the schedule's latest change before now is of the other kind
 * than the open phase, and that phase began before it, the missed phase opens (`catchUp`). A
 * moderator's hand change after the scheduled time wins until the schedule's next change.
 */
export class PhaseSchedule {
  private tasks = new Map<string, { spec: string; task: ScheduledTask }>();
  private reloader: ScheduledTask | null = null;
  private started = false;

  constructor(private readonly ctx: ServiceContext) {}

  async start(): Promise<void> {
    this.started = true;
    await this.reload();
    this.reloader = cron.schedule('0 * * * * *', () => void this.reload().catch((err) => this.ctx.log.error({ err }, 'phase schedule reload failed')), {
      name: 'stonehall-phase-schedule',
      noOverlap: true,
    });
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.reloader?.destroy();
    this.reloader = null;
    for (const { task } of this.tasks.values()) await task.destroy();
    this.tasks.clear();
  }

  /** The tasks that should exist, by key `<guild>:<kind>`. */
  private async wanted(): Promise<Map<string, { guildId: string; kind: PhaseKind; expr: string; timezone: string }>> {
    const guilds = await this.ctx.db.guild.findMany({ where: { OR: [{ restCron: { not: null } }, { battleCron: { not: null } }] } });
    const out = new Map<string, { guildId: string; kind: PhaseKind; expr: string; timezone: string }>();
    for (const g of guilds) {
      for (const [kind, expr] of [
        ['rest', g.restCron],
        ['battle', g.battleCron],
      ] as const) {
        if (expr && cron.validate(expr)) out.set(`${g.id}:${kind}`, { guildId: g.id, kind, expr, timezone: g.timeZone });
      }
    }
    return out;
  }

  /** Re-creates the tasks whose schedule changed; removes the ones no longer wanted; catches up. */
  async reload(): Promise<void> {
    if (!this.started) return;
    const wanted = await this.wanted();
    await this.catchUp(wanted);
    for (const [key, { task }] of this.tasks) {
      const w = wanted.get(key);
      if (!w || `${w.expr}@${w.timezone}` !== this.tasks.get(key)!.spec) {
        await task.destroy();
        this.tasks.delete(key);
      }
    }
    for (const [key, w] of wanted) {
      if (this.tasks.has(key)) continue;
      const task = cron.schedule(w.expr, () => void this.fire(w.guildId, w.kind), { name: `stonehall-phase-${key}`, timezone: w.timezone, noOverlap: true });
      this.tasks.set(key, { spec: `${w.expr}@${w.timezone}`, task });
    }
  }

  /**
   * Opens the phase a server's schedule says should be open, when its change was missed. Returns
   * the guilds caught up. Each server is checked on its own: one failing does not stop the rest.
   */
  async catchUp(wanted?: Awaited<ReturnType<PhaseSchedule['wanted']>>): Promise<string[]> {
    const now = this.ctx.clock.now();
    const latest = new Map<string, { kind: PhaseKind; at: Date }>();
    for (const w of (wanted ?? (await this.wanted())).values()) {
      const at = lastFireBefore(w.expr, w.timezone, now);
      const known = latest.get(w.guildId);
      if (at && (!known || at > known.at)) latest.set(w.guildId, { kind: w.kind, at });
    }
    const caught: string[] = [];
    for (const [guildId, due] of latest) {
      try {
        const open = await currentPhase(this.ctx, guildId);
        if (!open || open.kind === due.kind || open.startedAt >= due.at) continue;
        this.ctx.log.info({ guildId, kind: due.kind, scheduledAt: due.at.toISOString() }, 'catching up a missed scheduled phase change');
        if ((await this.fire(guildId, due.kind)) === 'changed') caught.push(guildId);
      } catch (err) {
        this.ctx.log.error({ err, guildId }, 'phase schedule catch-up failed');
      }
    }
    return caught;
  }

  /** What a tick does (tests call it directly): the same idempotent service as the moderator command. */
  async fire(guildId: string, kind: PhaseKind): Promise<'changed' | 'unchanged' | 'no-cycle'> {
    try {
      const r = await openPhase(this.ctx, { guildId, kind, member: null, source: 'schedule' });
      this.ctx.log.info({ guildId, kind, changed: r.changed }, 'scheduled phase change');
      return r.changed ? 'changed' : 'unchanged';
    } catch (err) {
      if (err instanceof UserError) return 'no-cycle';
      this.ctx.log.error({ err, guildId, kind }, 'scheduled phase change failed');
      throw err;
    }
  }

  /** For tests and status: the scheduled tasks, `<guild>:<kind>` → `<cron>@<time zone>`. */
  describe(): Record<string, string> {
    return Object.fromEntries([...this.tasks].map(([k, v]) => [k, v.spec]));
  }
}

/** The schedule's latest fire time at or before `now`, in the server's time zone (null if none). */
export function lastFireBefore(expr: string, timezone: string, now: Date): Date | null {
  try {
    // cron-parser's prev() is strictly before currentDate: start 1 ms after now to include now.
    return CronExpressionParser.parse(expr, { currentDate: new Date(now.getTime() + 1), tz: timezone }).prev().toDate();
  } catch {
    return null;
  }
}
