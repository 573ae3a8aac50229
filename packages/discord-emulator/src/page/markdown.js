// Discord markdown to HTML, for the playground page. Pure: no DOM; what depends on the page (names
// of users, roles and channels, time formatting, where links go) comes from `ctx`.
//
// Covered: code blocks and inline code, **bold**, *italics* / _italics_, __underline__,
// ~~strike~~, ||spoilers||, backslash escapes, # headers, -# subtext, > and >>> quotes, lists,
// [masked](links), bare and <suppressed> links, <@user> <@&role> <#channel> mentions, @everyone,
// <t:unix:style> timestamps, custom emoji and </command:id> mentions.
//
// The approach: pieces that must not be touched by later rules (code, escapes, links, mentions)
// are replaced by placeholders (private-use characters) holding their finished HTML; the rest is
// split into blocks, HTML-escaped, formatted, and the placeholders are put back at the end.

const INLINE = '\uE000';
const BLOCK = '\uE002';
const END = '\uE001';
const HOLE = /[\uE000\uE002](\d+)\uE001/g;
const HAS_HOLE = /[\uE000\uE002]\d+\uE001/;

export function escapeHtml(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** A Discord message link, or null: https://discord.com/channels/<guild|@me>/<channel>[/<message>]. */
export function parseMessageLink(url) {
  const m = /^https?:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/channels\/(\d+|@me)\/(\d+)(?:\/(\d+))?\/?$/.exec(String(url));
  return m ? { guildId: m[1], channelId: m[2], messageId: m[3] ?? null } : null;
}

/**
 * ctx (all optional):
 *   user(id) -> { name } | null                role(id) -> { name, color? } | null
 *   channel(id) -> { name } | null          timestamp(unix, style) -> { text, title }
 *   messageLinkLabel(link) -> string | null (text of a bare message link, e.g. "#knucklebones › message")
 * opts.inline: no block constructs (titles, field names, button labels).
 */
export function renderMarkdown(text, ctx = {}, opts = {}) {
  const store = [];
  const hold = (html, block = false) => `${block ? BLOCK : INLINE}${store.push(html) - 1}${END}`;
  let s = String(text ?? '').replace(/[\uE000-\uE002]/g, '');

  // Code first: nothing inside code is markdown.
  s = s.replace(/```(?:([A-Za-z0-9_+#.-]+)\n)?\n?([\s\S]*?)```/g, (_, lang, code) =>
    hold(`<pre class="md-codeblock"><code${lang ? ` data-lang="${escapeHtml(lang)}"` : ''}>${escapeHtml(code.replace(/\n$/, ''))}</code></pre>`, !opts.inline),
  );
  s = s.replace(/``([^`]+(?:`[^`]+)*)``|`([^`]+)`/g, (_, a, b) => hold(`<code class="md-code">${escapeHtml((a ?? b).trim() || (a ?? b))}</code>`));
  s = s.replace(/\\([^A-Za-z0-9\s])/g, (_, c) => hold(escapeHtml(c)));

  // Mentions, timestamps, emoji (their raw form contains < and >).
  s = s.replace(/<@!?(\d{1,20})>/g, (_, id) => {
    const u = ctx.user?.(id);
    return hold(`<span class="mention" data-user="${id}">@${escapeHtml(u?.name ?? 'unknown-user')}</span>`);
  });
  s = s.replace(/<@&(\d{1,20})>/g, (_, id) => {
    const r = ctx.role?.(id);
    const style = r?.color ? ` style="--role-color:#${r.color.toString(16).padStart(6, '0')}"` : '';
    return hold(`<span class="mention mention-role"${style}>@${escapeHtml(r?.name ?? 'unknown-role')}</span>`);
  });
  s = s.replace(/<#(\d{1,20})>/g, (_, id) => {
    const c = ctx.channel?.(id);
    return hold(c ? `<a class="mention mention-channel" href="#" data-channel="${id}">#${escapeHtml(c.name)}</a>` : '<span class="mention">#unknown</span>');
  });
  s = s.replace(/<t:(-?\d{1,13})(?::([tTdDfFR]))?>/g, (_, unix, style) => {
    const t = ctx.timestamp?.(Number(unix), style ?? 'f') ?? { text: new Date(Number(unix) * 1000).toISOString(), title: '' };
    return hold(`<time class="md-ts" data-t="${unix}" data-style="${style ?? 'f'}" title="${escapeHtml(t.title)}">${escapeHtml(t.text)}</time>`);
  });
  s = s.replace(/<(a?):(\w{2,32}):(\d{1,20})>/g, (_, _a, name) => hold(`<span class="md-emoji" title=":${escapeHtml(name)}:">:${escapeHtml(name)}:</span>`));
  s = s.replace(/<\/([-_\p{L}\p{N} ]{1,100}):(\d{1,20})>/gu, (_, name) => hold(`<span class="mention mention-command">/${escapeHtml(name)}</span>`));
  s = s.replace(/@(everyone|here)\b/g, (_, w) => hold(`<span class="mention">@${w}</span>`));

  // Links: masked, <suppressed>, bare.
  const link = (url, inner, bare) => {
    const ml = parseMessageLink(url);
    if (ml) {
      const label = bare ? ctx.messageLinkLabel?.(ml) : null;
      const jump = `${ml.channelId}/${ml.messageId ?? ''}`;
      return `<a class="md-link${label ? ' md-msglink' : ''}" href="${escapeHtml(url)}" data-jump="${jump}" title="${escapeHtml(url)}">${label ? escapeHtml(label) : inner}</a>`;
    }
    return `<a class="md-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer" title="${escapeHtml(url)}">${inner}</a>`;
  };
  s = s.replace(/\[([^\[\]\n]+)\]\(\s*<?(https?:\/\/[^\s()<>]+(?:\([^\s()<>]*\))?)>?(?:\s+"[^"]*")?\s*\)/g, (_, label, url) => hold(link(url, inline(label), false)));
  s = s.replace(/<(https?:\/\/[^\s<>]+)>/g, (_, url) => hold(link(url, escapeHtml(url), true)));
  s = s.replace(/https?:\/\/[^\s<>\uE000-\uE002]*[^\s<>\uE000-\uE002.,:;"')\]!?*_~|]/g, (url) => hold(link(url, escapeHtml(url), true)));

  const html = opts.inline ? inline(s) : blocks(s);
  let out = html;
  for (let i = 0; i < 5 && HAS_HOLE.test(out); i++) out = out.replace(HOLE, (_, n) => store[Number(n)] ?? '');
  return out;
}

/** Bold, italics, underline, strike, spoilers over escaped text (placeholders pass through). */
function inline(raw) {
  return escapeHtml(raw)
    .replace(/\*\*\*(?=\S)([\s\S]*?\S)\*\*\*/g, '<strong><em>$1</em></strong>')
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/__(?=\S)([\s\S]*?\S)__/g, '<u>$1</u>')
    .replace(/\*(?=[^\s*])([\s\S]*?[^\s*])\*(?!\*)/g, '<em>$1</em>')
    .replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}_])/gu, '$1<em>$2</em>')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<s>$1</s>')
    .replace(/\|\|([\s\S]+?)\|\|/g, '<span class="spoiler" tabindex="0" role="button" aria-label="Spoiler">$1</span>');
}

/** Line-level constructs: quotes, headers, subtext, lists; the rest are paragraphs (newlines kept). */
function blocks(src) {
  const lines = src.split('\n');
  const out = [];
  let para = [];
  const flush = () => {
    if (para.length) out.push(`<div class="md-p">${inline(para.join('\n'))}</div>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (/^>>> ?/.test(line)) {
      flush();
      const rest = [line.replace(/^>>> ?/, ''), ...lines.slice(i + 1)].join('\n');
      out.push(`<blockquote class="md-quote">${blocks(rest)}</blockquote>`);
      break;
    }
    if (/^> ?/.test(line) && !/^>\S*>/.test(line)) {
      flush();
      const quoted = [];
      while (i < lines.length && /^> ?/.test(lines[i])) quoted.push(lines[i++].replace(/^> ?/, ''));
      i--;
      out.push(`<blockquote class="md-quote">${blocks(quoted.join('\n'))}</blockquote>`);
    } else if ((m = /^(#{1,3}) (.*\S.*)$/.exec(line))) {
      flush();
      out.push(`<div class="md-h md-h${m[1].length}">${inline(m[2])}</div>`);
    } else if ((m = /^-# (.*\S.*)$/.exec(line))) {
      flush();
      out.push(`<div class="md-subtext">${inline(m[1])}</div>`);
    } else if (/^\s*[-*] \S/.test(line)) {
      flush();
      const items = [];
      while (i < lines.length && /^\s*[-*] \S/.test(lines[i])) items.push(lines[i++].replace(/^\s*[-*] /, ''));
      i--;
      out.push(`<ul class="md-list">${items.map((x) => `<li>${inline(x)}</li>`).join('')}</ul>`);
    } else if ((m = /^(\d{1,9})\. \S/.exec(line))) {
      flush();
      const start = Number(m[1]);
      const items = [];
      while (i < lines.length && /^\d{1,9}\. \S/.test(lines[i])) items.push(lines[i++].replace(/^\d{1,9}\. /, ''));
      i--;
      out.push(`<ol class="md-list" start="${start}">${items.map((x) => `<li>${inline(x)}</li>`).join('')}</ol>`);
    } else if (new RegExp(`^${BLOCK}\\d+${END}$`).test(line)) {
      flush();
      out.push(line);
    } else {
      para.push(line);
    }
  }
  flush();
  return out.join('');
}
