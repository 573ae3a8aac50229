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
 * A result's score with names, the same everywhere: the winning side first, then the others, each
 * highest first ("<@1> 0 · <@2> 1": a win on time may have the lower score). `sides` groups
 * partners (Tellstones' teams: "<@1> and <@3> 3 · <@2> and <@4> 1"); `note` adds to a side
 * ("(left)").
 */
export function namedScores(
  scores: Record<string, number>,
  winners: readonly string[],
  sides?: readonly (readonly string[])[],
  note: (side: readonly string[]) => string = () => '',
): string {
  const groups = (sides ?? Object.keys(scores).map((p) => [p])).filter((g) => g.some((p) => Object.hasOwn(scores, p)));
  const score = (g: readonly string[]) => scores[g.find((p) => Object.hasOwn(scores, p))!]!;
  const won = (g: readonly string[]) => Number(g.some((p) => winners.includes(p)));
  return groups
    .slice()
    .sort((a, b) => won(b) - won(a) || score(b) - score(a))
    .map((g) => `${g.map(mention).join(' and ')} ${score(g)}${note(g)}`)
    .join(' · ');
}

/**
 * How a game ended, said first, then its score with names: "🏆 <@1> wins on time: <@2>’s turn ran
 * out. Score: <@1> 0 · <@2> 1." `how` replaces the plain "wins" clause's tail (", the boast was
 * proven"); `label` names what the scores count ("Rounds won").
 */
export function outcomeText(
  o: { winners: readonly string[]; forfeited?: string | undefined },
  opts: { scores?: Record<string, number> | undefined; timedOut?: readonly string[] | undefined; sides?: readonly (readonly string[])[] | undefined; label?: string | undefined; how?: string | undefined } = {},
): string {
  const winners = o.winners;
  const sides = opts.sides;
  const winnerSide = sides?.find((g) => g.some((p) => winners.includes(p))) ?? winners;
  const who = winnerSide.map(mention).join(' and ');
  const verb = winnerSide.length === 1 ? 'wins' : 'win';
  let head: string;
  if (winners.length === 0) head = `🤝 A draw${opts.how ?? ''}.`;
  else if (o.forfeited) {
    head = (opts.timedOut ?? []).includes(o.forfeited) ? `🏆 ${who} ${verb} on time: ${mention(o.forfeited)}’s turn ran out.` : `🏆 ${who} ${verb}: ${mention(o.forfeited)} forfeited.`;
  } else head = `🏆 ${who} ${verb}${opts.how ?? ''}.`;
  const scores = opts.scores && Object.keys(opts.scores).length ? ` ${opts.label ?? 'Score'}: ${namedScores(opts.scores, winners, sides)}.` : '';
  return `${head}${scores}`;
}

/** At most `max` characters, cut at a word with an ellipsis (select option descriptions, labels). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}
