// The floor bot's board (bench/floor-bot-main.ts), also posted by the bench (bench/floor-bot.ts) as each game's first.
import { ButtonStyle, ComponentType, type InteractionUpdateOptions } from 'discord.js';

/** The board a click answers with: an embed and buttons of the size of a Knucklebones board. */
export function board(gameId: number, players: readonly [string, string], n: number): InteractionUpdateOptions & { allowed_mentions: { parse: [] } } {
  const [a, b] = players;
  const id = (what: string | number) => `floor:${gameId}:${a}:${b}:${n + 1}:${what}`;
  const grid = (seed: number) => [0, 1, 2].map((r) => [0, 1, 2].map((c) => ((seed + r * 3 + c) % 7 === 0 ? '·' : String(((seed + r + c) % 6) + 1))).join('  ')).join('\n');
  return {
    content: '',
    embeds: [
      {
        title: `Knucklebones · game #${gameId}`,
        description: `**Move ${n}.** <@${n % 2 ? a : b}> placed a 4 in column 2.\nIt is your turn: you rolled a **3**.\n\n\`\`\`\n${grid(n)}\n──────────\n${grid(n + 1)}\n\`\`\``,
        fields: [
          { name: 'Scores', value: `player one **${(n * 7) % 41}** · player two **${(n * 5) % 43}**`, inline: false },
          { name: 'Recent moves', value: `• move ${n - 1}: a 2 in column 1\n• move ${n}: a 4 in column 2`, inline: false },
        ],
        footer: { text: `Turn ends in 24 hours · game #${gameId} · version ${n}` },
      },
    ],
    components: [
      { type: ComponentType.ActionRow, components: [1, 2, 3].map((col) => ({ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: id(col), label: `Column ${col}` })) },
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: id('help'), label: 'How to play' },
          { type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: id('forfeit'), label: 'Forfeit' },
        ],
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
