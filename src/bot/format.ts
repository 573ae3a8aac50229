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
