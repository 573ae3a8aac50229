import { describe, expect, it } from 'vitest';
import { parseMessageLink, renderMarkdown } from '../../src/page/markdown.js';
import { offsetLabel, relativeTime } from '../../src/page/time.js';

/**
 * The playground's Discord markdown and time wording, without a browser: one row per construct the
 * bot uses (or a person might type), plus rows that must stay inert (code, escapes, injection).
 */
const ctx = {
  user: (id: string) => ({ '1': { name: 'Alice' } })[id] ?? null,
  role: (id: string) => ({ '2': { name: 'Moderator', color: 0x3498db } })[id] ?? null,
  channel: (id: string) => ({ '3': { name: 'knucklebones' } })[id] ?? null,
  timestamp: (unix: number, style: string) => ({ text: `T${unix}${style}`, title: 'full' }),
  messageLinkLabel: (l: { channelId: string; messageId: string | null }) => (l.channelId === '3' ? '#knucklebones › message' : null),
};
const md = (s: string) => renderMarkdown(s, ctx);
const p = (inner: string) => `<div class="md-p">${inner}</div>`;

describe('Discord markdown in the playground', () => {
  it.each([
    ['**bold**', p('<strong>bold</strong>')],
    ['*it* and _it_', p('<em>it</em> and <em>it</em>')],
    ['***both***', p('<strong><em>both</em></strong>')],
    ['__under__ ~~gone~~', p('<u>under</u> <s>gone</s>')],
    ['snake_case_name and 2 * 3 * 4', p('snake_case_name and 2 * 3 * 4')],
    ['\\*not italic\\* \\_no\\_', p('*not italic* _no_')],
    ['`a *b* <c>`', p('<code class="md-code">a *b* &lt;c&gt;</code>')],
    ['```\n 4 │ *6*\n```', '<pre class="md-codeblock"><code> 4 │ *6*</code></pre>'],
    ['```js\nlet x = 1;\n```', '<pre class="md-codeblock"><code data-lang="js">let x = 1;</code></pre>'],
    ['line one\nline two', p('line one\nline two')],
    ['# Title\ntext', '<div class="md-h md-h1">Title</div>' + p('text')],
    ['-# small print', '<div class="md-subtext">small print</div>'],
    ['> quoted\n> more\nafter', `<blockquote class="md-quote">${p('quoted\nmore')}</blockquote>${p('after')}`],
    ['>>> all\nof it', `<blockquote class="md-quote">${p('all\nof it')}</blockquote>`],
    ['- a\n- b', '<ul class="md-list"><li>a</li><li>b</li></ul>'],
    ['3. c\n4. d', '<ol class="md-list" start="3"><li>c</li><li>d</li></ol>'],
    ['<@1> <@!1> <@9>', p('<span class="mention" data-user="1">@Alice</span> <span class="mention" data-user="1">@Alice</span> <span class="mention" data-user="9">@unknown-user</span>')],
    ['<@&2>', p('<span class="mention mention-role" style="--role-color:#3498db">@Moderator</span>')],
    ['<#3>', p('<a class="mention mention-channel" href="#" data-channel="3">#knucklebones</a>')],
    ['**<@1>** wins', p('<strong><span class="mention" data-user="1">@Alice</span></strong> wins')],
    ['<t:1795435200:R> <t:5>', p('<time class="md-ts" data-t="1795435200" data-style="R" title="full">T1795435200R</time> <time class="md-ts" data-t="5" data-style="f" title="full">T5f</time>')],
    ['||secret||', p('<span class="spoiler" tabindex="0" role="button" aria-label="Spoiler">secret</span>')],
    ['<:dice:123>', p('<span class="md-emoji" title=":dice:">:dice:</span>')],
    ['</knucklebones join:55>', p('<span class="mention mention-command">/knucklebones join</span>')],
    ['[the **board**](https://example.com/a)', p('<a class="md-link" href="https://example.com/a" target="_blank" rel="noopener noreferrer" title="https://example.com/a">the <strong>board</strong></a>')],
    ['see https://example.com/x.', p('see <a class="md-link" href="https://example.com/x" target="_blank" rel="noopener noreferrer" title="https://example.com/x">https://example.com/x</a>.')],
    // Discord message links stay in the playground: they jump to the channel and message.
    ['Board: https://discord.com/channels/10/3/44', p('Board: <a class="md-link md-msglink" href="https://discord.com/channels/10/3/44" data-jump="3/44" title="https://discord.com/channels/10/3/44">#knucklebones › message</a>')],
    ['[board](https://discord.com/channels/10/7/45)', p('<a class="md-link" href="https://discord.com/channels/10/7/45" data-jump="7/45" title="https://discord.com/channels/10/7/45">board</a>')],
    // Nothing a message says becomes markup of the page.
    ['<script>alert(1)</script> & "q"', p('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;')],
    ['[x](javascript:alert(1))', p('[x](javascript:alert(1))')],
    ['https://a.example/"onmouseover=alert(1)', p('<a class="md-link" href="https://a.example/&quot;onmouseover=alert(1" target="_blank" rel="noopener noreferrer" title="https://a.example/&quot;onmouseover=alert(1">https://a.example/&quot;onmouseover=alert(1</a>)')],
    ['\uE000' + '0' + '\uE001 stays text', p('0 stays text')],
  ])('%j', (input, html) => {
    expect(md(input)).toBe(html);
  });

  it('renders titles and field names inline (no blocks), with escapes undone', () => {
    expect(renderMarkdown('Bob\\_\\*: 48 points', ctx, { inline: true })).toBe('Bob_*: 48 points');
    expect(renderMarkdown('# not a header', ctx, { inline: true })).toBe('# not a header');
  });

  it('recognises Discord message links', () => {
    expect(parseMessageLink('https://discord.com/channels/1/2/3')).toEqual({ guildId: '1', channelId: '2', messageId: '3' });
    expect(parseMessageLink('https://canary.discord.com/channels/@me/2')).toEqual({ guildId: '@me', channelId: '2', messageId: null });
    expect(parseMessageLink('https://example.com/channels/1/2/3')).toBeNull();
  });
});

describe('relative time as Discord words it', () => {
  const H = 3_600_000;
  it.each([
    [10_000, 'in a few seconds'],
    [-60_000, 'a minute ago'],
    [20 * 60_000, 'in 20 minutes'],
    [50 * 60_000, 'in an hour'],
    [12 * H, 'in 12 hours'],
    [24 * H, 'in a day'],
    [-3 * 24 * H, '3 days ago'],
    [60 * 24 * H, 'in 2 months'],
    [400 * 24 * H, 'in a year'],
  ])('%d ms from now: %s', (delta, text) => {
    expect(relativeTime(1_000_000_000_000 + delta, 1_000_000_000_000)).toBe(text);
  });

  it('labels the clock offset', () => {
    expect(offsetLabel(0)).toBe('real time');
    expect(offsetLabel(24 * H + 3 * H)).toBe('+1d 3h');
    expect(offsetLabel(30 * 60_000)).toBe('+30m');
  });
});
