// Time formatting as the Discord client does it, in the viewer's locale and time zone. "Now" is the
// emulator's clock (which the clock control moves), not the browser's, so relative timestamps and
// "Today at" follow advanced time. Pure: the caller passes nowMs.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const fmt = (options) => new Intl.DateTimeFormat(undefined, options);
const TIME = fmt({ hour: 'numeric', minute: '2-digit' });
const TIME_LONG = fmt({ hour: 'numeric', minute: '2-digit', second: '2-digit' });
const DATE_SHORT = fmt({ year: 'numeric', month: '2-digit', day: '2-digit' });
const DATE_LONG = fmt({ dateStyle: 'long' });
const DATE_TIME = fmt({ dateStyle: 'long', timeStyle: 'short' });
const FULL = fmt({ dateStyle: 'full', timeStyle: 'short' });

/** Discord's relative wording (moment.js thresholds): "in 23 hours", "a day ago", "in a few seconds". */
export function relativeTime(ms, nowMs) {
  const diff = ms - nowMs;
  const abs = Math.abs(diff);
  let text;
  if (abs < 45 * SECOND) text = 'a few seconds';
  else if (abs < 90 * SECOND) text = 'a minute';
  else if (abs < 45 * MINUTE) text = `${Math.round(abs / MINUTE)} minutes`;
  else if (abs < 90 * MINUTE) text = 'an hour';
  else if (abs < 22 * HOUR) text = `${Math.round(abs / HOUR)} hours`;
  else if (abs < 36 * HOUR) text = 'a day';
  else if (abs < 26 * DAY) text = `${Math.round(abs / DAY)} days`;
  else if (abs < 45 * DAY) text = 'a month';
  else if (abs < 320 * DAY) text = `${Math.round(abs / (30.44 * DAY))} months`;
  else if (abs < 548 * DAY) text = 'a year';
  else text = `${Math.round(abs / (365.25 * DAY))} years`;
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

/** A `<t:unix:style>` timestamp: { text, title } (title is the full date, shown on hover). */
export function formatTimestamp(unix, style, nowMs) {
  const d = new Date(unix * 1000);
  if (Number.isNaN(d.getTime())) return { text: 'Invalid Date', title: '' };
  const title = FULL.format(d);
  switch (style) {
    case 't':
      return { text: TIME.format(d), title };
    case 'T':
      return { text: TIME_LONG.format(d), title };
    case 'd':
      return { text: DATE_SHORT.format(d), title };
    case 'D':
      return { text: DATE_LONG.format(d), title };
    case 'F':
      return { text: FULL.format(d), title };
    case 'R':
      return { text: relativeTime(d.getTime(), nowMs), title };
    default:
      return { text: DATE_TIME.format(d), title };
  }
}

const dayKey = (d) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

/** The time beside an author's name: "Today at 4:20 PM", "Yesterday at …", else "11/28/2026 4:20 PM". */
export function messageTime(iso, nowMs) {
  const d = new Date(iso);
  const now = new Date(nowMs);
  const yesterday = new Date(nowMs - DAY);
  if (dayKey(d) === dayKey(now)) return `Today at ${TIME.format(d)}`;
  if (dayKey(d) === dayKey(yesterday)) return `Yesterday at ${TIME.format(d)}`;
  return `${DATE_SHORT.format(d)} ${TIME.format(d)}`;
}

export const shortTime = (iso) => TIME.format(new Date(iso));
export const fullDate = (iso) => FULL.format(new Date(iso));
/** The label of a day divider in the message list: "November 28, 2026". */
export const dayLabel = (iso) => DATE_LONG.format(new Date(iso));
export const sameDay = (a, b) => dayKey(new Date(a)) === dayKey(new Date(b));

/** "+1d 4h" for a clock offset. */
export function offsetLabel(ms) {
  if (!ms) return 'real time';
  const sign = ms < 0 ? '−' : '+';
  let rest = Math.abs(ms);
  const d = Math.floor(rest / DAY);
  rest -= d * DAY;
  const h = Math.floor(rest / HOUR);
  rest -= h * HOUR;
  const m = Math.round(rest / MINUTE);
  const parts = [];
  if (d) parts.push(`${d}d`);
  if (h) parts.push(`${h}h`);
  if (m || !parts.length) parts.push(`${m}m`);
  return sign + parts.join(' ');
}
