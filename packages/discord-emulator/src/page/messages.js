// Renders Discord message objects (as the test API returns them) into the message list: author
// line, interaction and reply headers, markdown content, embeds, attachments, components (v1 rows
// and Components V2), ephemeral notes. Pure HTML strings; `reconcile` patches the list in place by
// message id, so an edited message is replaced where it stands and nothing else is touched.

import { escapeHtml as esc } from './markdown.js';
import { dayLabel, fullDate, messageTime, sameDay, shortTime } from './time.js';

const EPHEMERAL = 64;
const LOADING = 128;
const AVATAR_COLOURS = ['#5865f2', '#757e8a', '#3ba55c', '#faa61a', '#ed4245', '#eb459f'];

export function displayName(user) {
  return user ? user.global_name || user.username : 'Unknown';
}

export function avatarHtml(user, cls = '') {
  const name = displayName(user);
  let hash = 0;
  for (const ch of String(user?.id ?? '')) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const colour = user?.bot ? '#5865f2' : AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
  return `<span class="avatar ${cls}" style="--av:${colour}" aria-hidden="true">${user?.bot ? '🎲' : esc(name.slice(0, 1).toUpperCase())}</span>`;
}

const hex = (n) => `#${Number(n).toString(16).padStart(6, '0')}`;

function emojiHtml(emoji) {
  if (!emoji) return '';
  return `<span class="c-emoji">${emoji.id ? `:${esc(emoji.name ?? 'emoji')}:` : esc(emoji.name ?? '')}</span>`;
}

// ---- components ------------------------------------------------------------------------------

const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

function button(c, m, rc) {
  const label = `${emojiHtml(c.emoji)}${c.label ? `<span class="btn-label">${esc(c.label)}</span>` : ''}`;
  if (c.style === 5) {
    const jump = rc.jumpOf(c.url);
    const attrs = jump ? `data-jump="${jump}"` : 'target="_blank" rel="noopener noreferrer"';
    const dis = c.disabled ? ' aria-disabled="true" tabindex="-1"' : '';
    return `<a class="btn btn-s2 btn-link${c.disabled ? ' is-disabled' : ''}" href="${esc(c.url)}" ${attrs}${dis}>${label}<svg class="ext" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M15 2a1 1 0 0 0 0 2h3.59l-8.3 8.3a1 1 0 1 0 1.42 1.4L20 5.42V9a1 1 0 1 0 2 0V3a1 1 0 0 0-1-1h-6ZM5 4a3 3 0 0 0-3 3v12a3 3 0 0 0 3 3h12a3 3 0 0 0 3-3v-6a1 1 0 1 0-2 0v6a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h6a1 1 0 1 0 0-2H5Z"/></svg></a>`;
  }
  if (c.style === 6) return `<button class="btn btn-s1" disabled title="Premium buttons are not supported">Premium (SKU)</button>`;
  const busy = rc.busy.has(`${m.id}|${c.custom_id}`);
  return `<button class="btn btn-s${c.style ?? 2}${busy ? ' is-busy' : ''}" data-action="button" data-msg="${m.id}" data-cid="${esc(c.custom_id)}"${c.disabled || busy ? ' disabled' : ''}>${label}${busy ? '<span class="spinner" aria-label="Sending"></span>' : ''}</button>`;
}

function selectFace(c, m, rc) {
  const busy = rc.busy.has(`${m.id}|${c.custom_id}`);
  const defaults = rc.selectDefaults(c);
  const text = defaults.length ? defaults.map((o) => o.label).join(', ') : c.placeholder || 'Make a selection';
  return `<div class="select${c.disabled ? ' is-disabled' : ''}${busy ? ' is-busy' : ''}" data-action="select" data-msg="${m.id}" data-cid="${esc(c.custom_id)}">
<button class="select-face" type="button" aria-haspopup="listbox" aria-expanded="false"${c.disabled || busy ? ' disabled' : ''}><span class="${defaults.length ? '' : 'select-placeholder'}">${esc(text)}</span>${busy ? '<span class="spinner"></span>' : '<svg class="chev" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M5.3 9.3a1 1 0 0 1 1.4 0L12 14.58l5.3-5.3a1 1 0 1 1 1.4 1.42l-6 6a1 1 0 0 1-1.4 0l-6-6a1 1 0 0 1 0-1.42Z"/></svg>'}</button></div>`;
}

function component(c, m, rc) {
  if (!c || typeof c !== 'object') return '';
  switch (c.type) {
    case 1:
      return `<div class="c-row">${(c.components ?? []).map((x) => component(x, m, rc)).join('')}</div>`;
    case 2:
      return button(c, m, rc);
    case 9:
      return `<div class="c-section"><div class="c-section-text">${(c.components ?? []).map((x) => component(x, m, rc)).join('')}</div>${c.accessory ? `<div class="c-accessory">${component(c.accessory, m, rc)}</div>` : ''}</div>`;
    case 10:
      return `<div class="c-text md">${rc.md(c.content ?? '')}</div>`;
    case 11:
      return `<img class="c-thumb" alt="${esc(c.description ?? '')}" src="${esc(rc.mediaUrl(c.media?.url, m))}">`;
    case 12:
      return `<div class="c-gallery">${(c.items ?? []).map((it) => `<img alt="${esc(it.description ?? '')}" src="${esc(rc.mediaUrl(it.media?.url, m))}">`).join('')}</div>`;
    case 13:
      return `<div class="attachment-file">📄 ${esc(c.file?.url ?? 'file')}</div>`;
    case 14:
      return c.divider === false ? `<div class="c-space${c.spacing === 2 ? ' lg' : ''}"></div>` : `<hr class="c-sep${c.spacing === 2 ? ' lg' : ''}">`;
    case 17:
      return `<div class="c-container"${c.accent_color != null ? ` style="--accent:${hex(c.accent_color)}"` : ''}>${(c.components ?? []).map((x) => component(x, m, rc)).join('')}</div>`;
    default:
      return SELECT_TYPES.has(c.type) ? `<div class="c-row">${selectFace(c, m, rc)}</div>` : '';
  }
}

// ---- embeds ----------------------------------------------------------------------------------

function embed(e, m, rc) {
  const parts = [];
  if (e.author?.name) {
    const icon = e.author.icon_url ? `<img class="embed-author-icon" alt="" src="${esc(rc.mediaUrl(e.author.icon_url, m))}">` : '';
    const name = e.author.url ? `<a href="${esc(e.author.url)}" target="_blank" rel="noopener noreferrer">${esc(e.author.name)}</a>` : esc(e.author.name);
    parts.push(`<div class="embed-author">${icon}${name}</div>`);
  }
  if (e.title) {
    const t = rc.md(e.title, { inline: true });
    parts.push(`<div class="embed-title">${e.url ? `<a href="${esc(e.url)}" target="_blank" rel="noopener noreferrer">${t}</a>` : t}</div>`);
  }
  if (e.description) parts.push(`<div class="embed-desc md">${rc.md(e.description)}</div>`);
  if (e.fields?.length) {
    // Discord puts up to three inline fields side by side (two beside a thumbnail).
    const perRow = e.thumbnail ? 2 : 3;
    const rows = [];
    let row = [];
    for (const f of e.fields) {
      if (!f.inline || row.length === perRow) {
        if (row.length) rows.push(row);
        row = [];
      }
      row.push(f);
      if (!f.inline) {
        rows.push(row);
        row = [];
      }
    }
    if (row.length) rows.push(row);
    const cells = rows.flatMap((r) =>
      r.map((f, i) => {
        const span = 12 / r.length;
        return `<div class="embed-field" style="grid-column:${1 + i * span} / ${1 + (i + 1) * span}"><div class="embed-field-name">${rc.md(f.name, { inline: true })}</div><div class="embed-field-value md">${rc.md(f.value)}</div></div>`;
      }),
    );
    parts.push(`<div class="embed-fields">${cells.join('')}</div>`);
  }
  if (e.image?.url) parts.push(`<img class="embed-image" alt="" src="${esc(rc.mediaUrl(e.image.url, m))}">`);
  if (e.footer?.text || e.timestamp) {
    const icon = e.footer?.icon_url ? `<img class="embed-footer-icon" alt="" src="${esc(rc.mediaUrl(e.footer.icon_url, m))}">` : '';
    const bits = [e.footer?.text ? esc(e.footer.text) : '', e.timestamp ? esc(rc.timeLabel(e.timestamp)) : ''].filter(Boolean);
    parts.push(`<div class="embed-footer">${icon}<span>${bits.join(' • ')}</span></div>`);
  }
  const thumb = e.thumbnail?.url ? `<img class="embed-thumb" alt="" src="${esc(rc.mediaUrl(e.thumbnail.url, m))}">` : '';
  const colour = e.color != null ? ` style="--embed-color:${hex(e.color)}"` : '';
  return `<div class="embed"${colour}><div class="embed-body">${parts.join('')}</div>${thumb}</div>`;
}

function attachment(a) {
  if (/^image\//.test(a.content_type ?? '') || /\.(png|jpe?g|gif|webp)$/i.test(a.filename ?? '')) {
    return `<a class="attachment-image" href="${esc(a.url)}" target="_blank" rel="noopener noreferrer"><img alt="${esc(a.description ?? a.filename)}" src="${esc(a.url)}"></a>`;
  }
  const size = a.size != null ? `<span class="attachment-size">${a.size < 1024 ? `${a.size} bytes` : `${(a.size / 1024).toFixed(1)} KB`}</span>` : '';
  return `<div class="attachment-file">📄 <a href="${esc(a.url)}" target="_blank" rel="noopener noreferrer">${esc(a.filename)}</a>${size}</div>`;
}

// ---- messages --------------------------------------------------------------------------------

function contextLine(m, rc) {
  const ref = m.referenced_message;
  if ((m.type === 19 || m.type === 23) && m.message_reference) {
    if (!ref) return `<div class="msg-context"><span class="ctx-spine"></span><span class="ctx-missing">Original message was deleted</span></div>`;
    const snippet = ref.content ? rc.md(ref.content.split('\n')[0].slice(0, 120), { inline: true }) : ref.embeds?.length || ref.attachments?.length ? '<em>Click to see attachment</em> 🖼️' : '';
    return `<div class="msg-context ctx-reply" data-jump="${ref.channel_id}/${ref.id}" role="link" tabindex="0"><span class="ctx-spine"></span>${avatarHtml(ref.author, 'avatar-xs')}<span class="ctx-author">@${esc(displayName(ref.author))}</span><span class="ctx-snippet">${snippet}</span></div>`;
  }
  if (m.interaction && m.interaction.name) {
    const u = m.interaction.user;
    return `<div class="msg-context"><span class="ctx-spine"></span>${avatarHtml(u, 'avatar-xs')}<span class="ctx-author">${esc(displayName(u))}</span> used <span class="ctx-command">/${esc(m.interaction.name)}</span></div>`;
  }
  return '';
}

export function messageHtml(m, rc, grouped) {
  const eph = (m.flags & EPHEMERAL) !== 0;
  const loading = (m.flags & LOADING) !== 0;
  const author = m.author;
  const mentioned = (m.mentions ?? []).some((u) => u.id === rc.meId) || m.mention_everyone;
  const ctx = grouped ? '' : contextLine(m, rc);
  const cls = ['msg', grouped ? 'msg-grouped' : 'msg-first', eph ? 'msg-ephemeral' : '', mentioned ? 'msg-mentioned' : '', rc.highlightId === m.id ? 'is-highlighted' : '']
    .filter(Boolean)
    .join(' ');
  let body = '';
  if (!grouped) {
    const colour = rc.nameColour(author.id);
    body += `<h3 class="msg-header"><span class="msg-author"${colour ? ` style="color:${colour}"` : ''}>${esc(displayName(author))}</span>${author.bot ? '<span class="tag-app">APP</span>' : ''}<time class="msg-time" datetime="${esc(m.timestamp)}" title="${esc(fullDate(m.timestamp))}">${esc(messageTime(m.timestamp, rc.nowMs()))}</time></h3>`;
  }
  if (loading) body += `<div class="msg-thinking">${esc(displayName(author))} is thinking<span class="dots"><i></i><i></i><i></i></span></div>`;
  if (m.content) {
    const edited = m.edited_timestamp ? ` <span class="msg-edited" title="${esc(fullDate(m.edited_timestamp))}">(edited)</span>` : '';
    body += `<div class="msg-content md">${rc.md(m.content)}${edited}</div>`;
  }
  if (m.embeds?.length) body += `<div class="msg-embeds">${m.embeds.map((e) => embed(e, m, rc)).join('')}</div>`;
  // Files an embed shows through attachment://name are not listed again, as in Discord.
  const shown = new Set(JSON.stringify(m.embeds ?? []).match(/attachment:\/\/[^"]+/g)?.map((u) => u.slice('attachment://'.length)) ?? []);
  const files = (m.attachments ?? []).filter((a) => !shown.has(a.filename));
  if (files.length) body += `<div class="msg-attachments">${files.map(attachment).join('')}</div>`;
  if (m.components?.length) body += `<div class="msg-components">${m.components.map((c) => component(c, m, rc)).join('')}</div>`;
  if (m.poll) body += `<div class="msg-note">📊 Poll: ${esc(m.poll.question?.text ?? '')}</div>`;
  const failure = rc.failures.get(m.id);
  if (failure) body += `<div class="msg-failed" role="alert">⚠️ ${esc(failure)}</div>`;
  if (eph) {
    body += `<div class="msg-eph-note"><svg viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7Zm0 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8Z"/></svg>Only you can see this • <button type="button" class="linklike" data-action="dismiss" data-msg="${m.id}">Dismiss message</button></div>`;
  }
  const gutter = grouped
    ? `<time class="msg-gutter-time" datetime="${esc(m.timestamp)}" title="${esc(fullDate(m.timestamp))}">${esc(shortTime(m.timestamp))}</time>`
    : avatarHtml(author, 'msg-avatar');
  return `<article class="${cls}" id="msg-${m.id}" data-id="${m.id}" data-author="${author.id}">${ctx}<div class="msg-main">${gutter}<div class="msg-body">${body}</div></div></article>`;
}

function canGroup(prev, m) {
  if (!prev || prev.author.id !== m.author.id) return false;
  if (m.interaction || (m.type === 19 && m.message_reference) || m.type === 23) return false;
  if (((prev.flags ^ m.flags) & EPHEMERAL) !== 0) return false;
  if (!sameDay(prev.timestamp, m.timestamp)) return false;
  return Math.abs(Date.parse(m.timestamp) - Date.parse(prev.timestamp)) < 7 * 60_000;
}

/** The keyed items of a channel's list: a welcome header, day dividers and messages. */
export function listItems(messages, rc, intro) {
  const items = [{ key: 'intro', html: intro }];
  let prev = null;
  for (const m of messages) {
    if (rc.dismissed.has(m.id)) continue;
    if (!prev || !sameDay(prev.timestamp, m.timestamp)) {
      items.push({ key: `day-${m.id}`, html: `<div class="day-divider" role="separator"><span>${esc(dayLabel(m.timestamp))}</span></div>` });
    }
    items.push({ key: m.id, html: messageHtml(m, rc, canGroup(prev, m)) });
    prev = m;
  }
  return items;
}

/** Patches `container` to hold exactly `items` in order, reusing elements whose HTML is unchanged. */
export function reconcile(container, items) {
  const existing = new Map();
  for (const el of [...container.children]) existing.set(el.dataset.key, el);
  let prev = null;
  for (const item of items) {
    let el = existing.get(item.key);
    existing.delete(item.key);
    if (!el || el._html !== item.html) {
      const tpl = document.createElement('template');
      tpl.innerHTML = item.html.trim();
      const fresh = tpl.content.firstElementChild ?? document.createElement('div');
      fresh.dataset.key = item.key;
      fresh._html = item.html;
      if (el) el.replaceWith(fresh);
      el = fresh;
    }
    const want = prev ? prev.nextElementSibling : container.firstElementChild;
    if (want !== el) container.insertBefore(el, want);
    prev = el;
  }
  for (const el of existing.values()) el.remove();
}
