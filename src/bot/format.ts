/** Discord formatting helpers shared by renderers. */
export const ts = (d: Date | string, style: 'f' | 'R' | 't' | 'F' = 'R') => `<t:${Math.floor(new Date(d).getTime() / 1000)}:${style}>`;
/** A player in a message: a Discord mention, or the autopilot's seat of a practice game by name. */
export const mention = (userId: string) => {
  const bot = /^autopilot-(\d+)$/.exec(userId);
  return bot ? `🤖 Autopilot${bot[1] === '1' ? '' : ` ${bot[1]}`}` : `<@${userId}>`;
};
export const messageUrl = (guildId: string, channelId: string, messageId: string) =>
  `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
export const channelUrl = (guildId: string, channelId: string) => `https://discord.com/channels/${guildId}/${channelId}`;
/** Escapes Discord markdown in user-provided names. */
export const plain = (s: string) => s.replace(/([\\*_`~|>#\[\]()-])/g, '\\$1').slice(0, 64);
export const COLOURS = { active: 0x5865f2, won: 0x57f287, draw: 0xfee75c, forfeit: 0xed4245 } as const;

/**
 * A result's score, the same everywhere: the winners' scores first, then the others', each group
 * highest first ("54–19"; a draw "19–19"; three players "12–9–4"). Tellstones teams pass one
 * score per side.
 */
export function scoreText(scores: Record<string, number>, winners: readonly string[]): string {
  const entries = Object.entries(scores);
  const win = entries.filter(([p]) => winners.includes(p)).map(([, v]) => v);
  const rest = entries.filter(([p]) => !winners.includes(p)).map(([, v]) => v);
  const desc = (a: number, b: number) => b - a;
  return [...win.sort(desc), ...rest.sort(desc)].join('–');
}

/** At most `max` characters, cut at a word with an ellipsis (select option descriptions, labels). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}
