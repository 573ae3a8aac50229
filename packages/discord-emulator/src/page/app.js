// The playground page: a Discord-like client over the emulator's test API. Who you act as and which
// channel you look at live in the address (?as=bob&channel=knucklebones), so each browser tab can
// be a different user; every tab follows the emulator live through /_test/events (events.js).
// This module holds the state and the chrome (switcher, channel list, members, clock, refused
// requests); composer.js is the message box, messages.js draws messages, select-menu.js and
// modal.js are the bot's menus and modals.

import { api } from './api.js';
import { ChannelSettings } from './channel-settings.js';
import { Composer, commandEntries } from './composer.js';
import { followEvents } from './events.js';
import { installLightbox } from './lightbox.js';
import { escapeHtml as esc, parseMessageLink, renderMarkdown } from './markdown.js';
import { avatarHtml, displayName, listItems, reconcile } from './messages.js';
import { openModal } from './modal.js';
import { SelectMenus } from './select-menu.js';
import { formatTimestamp, messageTime, offsetLabel } from './time.js';

const $ = (s) => document.querySelector(s);
const HOUR = 3_600_000;

const app = {
  snap: null,
  me: 'alice',
  /** The open channel: a guild channel id, or "dm" (the acting user's DM with the bot). */
  view: null,
  skew: 0,
  /** view key -> messages (oldest first) as the acting user sees them; only for loaded views. */
  cache: new Map(),
  unread: new Map(),
  mentions: new Map(),
  busy: new Set(),
  failures: new Map(),
  dismissed: new Set(),
  local: new Map(),
  highlightId: null,
  /** Whether the message list keeps to its newest message (the reader has not scrolled up). */
  stick: true,
  loadSeq: 0,
  rejectionsSeen: 0,
};

// ---- lookups ---------------------------------------------------------------------------------

const nowMs = () => Date.now() + app.skew;
/** Who the page can act as: everyone with an alias except bots and the guild's owner (the owner can do anything: not a useful point of view). */
const actors = () => app.snap.users.filter((u) => u.alias && !u.bot && u.id !== app.snap.guild.owner_id);
const meUser = () => app.snap.users.find((u) => u.alias === app.me) ?? actors()[0];
const userById = (id) => app.snap.users.find((u) => u.id === id) ?? null;
const roleById = (id) => app.snap.guild.roles.find((r) => r.id === id) ?? null;
const guildChannel = (id) => app.snap.channels.find((c) => c.id === id) ?? null;
const myDmId = () => app.snap.dm_channels.find((c) => c.recipient_id === meUser().id)?.id ?? null;
/** Everyone in the demo guild (the emulator's users are all its members). */
const members = () => app.snap.users;
const bot = () => app.snap.bot;

function keyOf(channelId) {
  if (guildChannel(channelId)) return channelId;
  if (channelId === myDmId()) return 'dm';
  return null;
}

function viewLabel(key = app.view) {
  if (key === 'dm') return `@${displayName(bot())}`;
  return `#${guildChannel(key)?.name ?? 'unknown'}`;
}

function nameColour(userId) {
  const u = userById(userId);
  const role = (u?.roles ?? [])
    .map(roleById)
    .filter((r) => r && r.color)
    .sort((a, b) => b.position - a.position)[0];
  return role ? `#${role.color.toString(16).padStart(6, '0')}` : null;
}

function setSkew(serverNowIso) {
  app.skew = Date.parse(serverNowIso) - Date.now();
}

// ---- rendering context for messages ------------------------------------------------------------

const mdCtx = {
  user: (id) => {
    const u = userById(id);
    return u ? { name: displayName(u), me: id === meUser().id } : null;
  },
  role: (id) => {
    const r = roleById(id);
    return r ? { name: r.name.replace(/^@/, ''), color: r.color } : null;
  },
  channel: (id) => {
    const c = guildChannel(id);
    return c ? { name: c.name } : null;
  },
  timestamp: (unix, style) => formatTimestamp(unix, style, nowMs()),
  messageLinkLabel: (link) => {
    const c = guildChannel(link.channelId);
    const where = c ? `#${c.name}` : link.channelId === myDmId() ? `@${displayName(bot())}` : null;
    return where ? (link.messageId ? `${where} › message` : where) : null;
  },
};

const rc = {
  get meId() {
    return meUser().id;
  },
  get highlightId() {
    return app.highlightId;
  },
  busy: app.busy,
  failures: app.failures,
  dismissed: app.dismissed,
  nowMs,
  nameColour,
  md: (text, opts) => renderMarkdown(text, mdCtx, opts),
  timeLabel: (iso) => messageTime(iso, nowMs()),
  jumpOf: (url) => {
    const l = parseMessageLink(url);
    return l ? `${l.channelId}/${l.messageId ?? ''}` : null;
  },
  mediaUrl: (url, m) => {
    if (typeof url !== 'string') return '';
    if (url.startsWith('attachment://')) return m.attachments?.find((a) => a.filename === url.slice('attachment://'.length))?.url ?? '';
    return url;
  },
  selectDefaults: (c) => {
    if (c.type === 3) return (c.options ?? []).filter((o) => o.default);
    return (c.default_values ?? []).map((v) => ({ label: selectLabel(v.type, v.id) }));
  },
};

function selectLabel(type, id) {
  if (type === 'user') return displayName(userById(id));
  if (type === 'role') return `@${roleById(id)?.name ?? id}`;
  return `#${guildChannel(id)?.name ?? id}`;
}

// ---- chrome: switcher, channels, DMs, members, clock, errors ----------------------------------

function renderSwitcher() {
  $('#switcher').innerHTML = `<span class="switcher-label">Acting as</span>${actors()
    .map((u) => {
      const on = u.alias === app.me;
      return `<button type="button" class="who${on ? ' is-on' : ''}" role="radio" aria-checked="${on}" data-as="${u.alias}" title="Act as ${esc(displayName(u))}">${avatarHtml(u, 'avatar-sm')}<span class="who-name">${esc(displayName(u))}</span></button>`;
    })
    .join('')}`;
  const me = meUser();
  $('#user-panel').innerHTML = `${avatarHtml(me, 'avatar-md')}<div class="user-panel-names"><div class="user-panel-name">${esc(displayName(me))}</div><div class="user-panel-sub">${esc(me.username)}</div></div>`;
}

function badge(n, cls = 'badge') {
  return n ? `<span class="${cls}" aria-label="${n} unread">${n > 99 ? '99+' : n}</span>` : '';
}

function renderSidebar() {
  $('#guild-name').textContent = app.snap.guild.name;
  $('#brand-name').textContent = `${app.snap.application.name} playground`;
  $('#channel-list').innerHTML = app.snap.channels
    .map((c) => {
      const unread = app.unread.get(c.id) ?? 0;
      const active = app.view === c.id;
      return `<li><a href="?as=${app.me}&channel=${esc(c.name)}" class="channel${active ? ' is-active' : ''}${unread ? ' is-unread' : ''}" data-open="${c.id}"${active ? ' aria-current="page"' : ''}><span class="hash" aria-hidden="true">#</span><span class="channel-name">${esc(c.name)}</span>${badge(app.mentions.get(c.id) ?? 0)}</a></li>`;
    })
    .join('');
  const dmUnread = app.unread.get('dm') ?? 0;
  const active = app.view === 'dm';
  $('#dm-list').innerHTML = `<li><a href="?as=${app.me}&channel=dm" class="channel dm${active ? ' is-active' : ''}${dmUnread ? ' is-unread' : ''}" data-open="dm"${active ? ' aria-current="page"' : ''}>${avatarHtml(bot(), 'avatar-sm')}<span class="channel-name">${esc(displayName(bot()))}</span><span class="tag-app">APP</span>${badge(dmUnread)}</a></li>`;
  const total = [...app.unread.entries()].reduce((n, [k, v]) => n + (k === 'dm' ? v : app.mentions.get(k) ?? 0), 0);
  document.title = `${total ? `(${total}) ` : ''}${viewLabel()} — ${app.snap.application.name} playground`;
  $('#toggle-sidebar').classList.toggle('has-unread', total > 0);
}

function renderMembers() {
  const all = members();
  const placed = new Set();
  const groups = [];
  const hoisted = app.snap.guild.roles.filter((r) => r.hoist).sort((a, b) => b.position - a.position);
  for (const r of hoisted) {
    const list = all.filter((u) => !placed.has(u.id) && u.roles.includes(r.id));
    list.forEach((u) => placed.add(u.id));
    if (list.length) groups.push({ name: r.name, list });
  }
  const rest = all.filter((u) => !placed.has(u.id));
  if (rest.length) groups.push({ name: 'Online', list: rest });
  const me = meUser().id;
  $('#members').innerHTML = groups
    .map(
      (g) =>
        `<h2 class="members-title">${esc(g.name)} — ${g.list.length}</h2>${g.list
          .sort((a, b) => displayName(a).localeCompare(displayName(b)))
          .map((u) => {
            const colour = nameColour(u.id);
            return `<div class="member${u.id === me ? ' is-me' : ''}" data-user="${u.id}"><span class="member-avatar">${avatarHtml(u, 'avatar-md')}<span class="status" aria-hidden="true"></span></span><span class="member-name"${colour ? ` style="color:${colour}"` : ''}>${esc(displayName(u))}</span>${u.bot ? '<span class="tag-app">APP</span>' : ''}${u.id === app.snap.guild.owner_id ? '<span class="crown" title="Server Owner">👑</span>' : ''}${u.id === me ? '<span class="member-you">you</span>' : ''}</div>`;
          })
          .join('')}`,
    )
    .join('');
}

function renderClock() {
  const offset = app.snap.clock.offsetMs;
  const now = new Date(nowMs());
  $('#clock-now').textContent = now.toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' });
  $('#clock-offset').textContent = offset ? offsetLabel(offset) : '';
  $('#clock-full').textContent = now.toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'medium' });
  $('#clock-offset-full').textContent = offset ? `${offsetLabel(offset)} ahead of real time` : 'Real time (not advanced yet)';
}

function renderErrors() {
  const list = app.snap.rejections ?? [];
  const fresh = Math.max(0, list.length - app.rejectionsSeen);
  const btn = $('#errors-btn');
  btn.hidden = list.length === 0;
  btn.classList.toggle('has-new', fresh > 0);
  $('#errors-count').textContent = String(list.length);
  $('#errors-list').innerHTML = list.length
    ? list
        .slice()
        .reverse()
        .map(
          (r) =>
            `<li class="rejection"><div class="rejection-head"><code>${esc(r.method)} ${esc(r.path)}</code><span class="rejection-time">${esc(messageTime(r.at, nowMs()))}</span></div><div class="rejection-msg">${r.status} · ${r.code} ${esc(r.message)}</div>${r.details?.length ? `<ul class="rejection-details">${r.details.map((d) => `<li><code>${esc(d)}</code></li>`).join('')}</ul>` : ''}</li>`,
        )
        .join('')
    : '<li class="rejection-none">No refused requests.</li>';
}

function renderHeader() {
  const title = $('#chat-title');
  if (app.view === 'dm') {
    title.innerHTML = `${avatarHtml(bot(), 'avatar-sm')}<span>${esc(displayName(bot()))}</span><span class="tag-app">APP</span>`;
    $('#chat-topic').textContent = 'Your direct messages with the bot';
  } else {
    const c = guildChannel(app.view);
    title.innerHTML = `<span class="hash" aria-hidden="true">#</span><span>${esc(c?.name ?? '')}</span>`;
    $('#chat-topic').textContent = c?.topic ?? '';
  }
  channelSettings.refreshButton();
}

function introHtml() {
  if (app.view === 'dm') {
    return `<div class="channel-intro">${avatarHtml(bot(), 'avatar-xl')}<h1>${esc(displayName(bot()))}</h1><p>This is the beginning of your direct message history with <b>${esc(displayName(bot()))}</b>, as ${esc(displayName(meUser()))}.</p></div>`;
  }
  const c = guildChannel(app.view);
  return `<div class="channel-intro"><div class="intro-hash" aria-hidden="true">#</div><h1>Welcome to #${esc(c?.name ?? '')}!</h1><p>This is the start of the #${esc(c?.name ?? '')} channel. ${esc(c?.topic ?? '')}</p></div>`;
}

// ---- messages --------------------------------------------------------------------------------

function viewMessages() {
  const msgs = [...(app.cache.get(app.view) ?? []), ...(app.local.get(app.view) ?? [])];
  return msgs.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

function renderMessages({ toBottom = false } = {}) {
  const box = $('#messages');
  reconcile($('#message-list'), listItems(viewMessages(), rc, introHtml()));
  box.classList.toggle('is-loading', !app.cache.has(app.view));
  if (toBottom) app.stick = true;
  if (app.stick) box.scrollTop = box.scrollHeight;
}

/** The list follows new messages while the reader is at the bottom (also when images load later). */
function followBottom() {
  const box = $('#messages');
  box.addEventListener('scroll', () => {
    app.stick = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  });
  new ResizeObserver(() => {
    if (app.stick) box.scrollTop = box.scrollHeight;
  }).observe($('#message-list'));
}

function upsert(list, m) {
  const i = list.findIndex((x) => x.id === m.id);
  if (i >= 0) list[i] = m;
  else {
    list.push(m);
    if (list.length > 1 && BigInt(list[list.length - 2].id) > BigInt(m.id)) list.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }
}

async function loadView() {
  const seq = ++app.loadSeq;
  const key = app.view;
  try {
    const data = await api.messages(key === 'dm' ? 'dm' : key, app.me);
    if (seq !== app.loadSeq) return;
    app.cache.set(key, data.messages);
    renderMessages({ toBottom: true });
  } catch (err) {
    toast(`Could not load ${viewLabel(key)}: ${err.message}`, 'error');
  }
}

async function openView(key, { jumpTo = null, push = true } = {}) {
  const changed = key !== app.view;
  app.view = key;
  app.unread.delete(key);
  app.mentions.delete(key);
  if (changed) app.highlightId = null;
  document.body.classList.remove('sidebar-open');
  $('#toggle-sidebar').setAttribute('aria-expanded', 'false');
  if (push) updateAddress();
  renderSidebar();
  renderHeader();
  if (changed) {
    composer.reset();
    app.cache.delete(key);
    renderMessages({ toBottom: true });
  }
  if (changed || !app.cache.has(key)) await loadView();
  if (jumpTo) highlight(jumpTo);
}

function updateAddress() {
  const channel = app.view === 'dm' ? 'dm' : guildChannel(app.view)?.name ?? app.view;
  history.replaceState(null, '', `?as=${encodeURIComponent(app.me)}&channel=${encodeURIComponent(channel)}`);
}

function highlight(messageId) {
  const exists = viewMessages().some((m) => m.id === messageId);
  if (!exists) {
    toast(`That message is not in ${viewLabel()} for ${displayName(meUser())} (it may have been deleted, or be someone else’s ephemeral message).`, 'warn');
    return;
  }
  app.highlightId = messageId;
  renderMessages();
  app.stick = false;
  document.getElementById(`msg-${messageId}`)?.scrollIntoView({ block: 'center' });
}

/** A Discord link inside the playground: open that channel and highlight the message. */
function jump(channelId, messageId) {
  const key = keyOf(channelId);
  if (!key) {
    toast(`${displayName(meUser())} cannot see that channel (it may be someone else’s DM).`, 'warn');
    return;
  }
  void openView(key, { jumpTo: messageId || null });
}

function addLocalNotice(key, content) {
  const ms = BigInt(nowMs());
  const id = (((ms - 1420070400000n) << 22n) + BigInt(Math.floor(Math.random() * 4096))).toString();
  const list = app.local.get(key) ?? [];
  list.push({ id, type: 0, author: bot(), content, flags: 64, timestamp: new Date(nowMs()).toISOString(), edited_timestamp: null, embeds: [], components: [], attachments: [], mentions: [] });
  app.local.set(key, list);
  if (key === app.view) renderMessages({ toBottom: true });
}

// ---- interactions ----------------------------------------------------------------------------

function afterInteraction(result, messageId) {
  if (result.error) {
    if (messageId) app.failures.set(messageId, 'This interaction failed');
    else addLocalNotice(app.view, `The application did not respond. ${result.error}`);
    toast(result.error, 'error', { title: `${displayName(bot())} did not respond` });
  } else if (result.response?.type === 9 && result.response.modal) {
    const modal = result.response.modal;
    openModal($('#modal'), modal, async (values) => {
      const r = await api.modal({ user: app.me, customId: modal.custom_id, values });
      afterInteraction(r, null);
    });
  }
  renderMessages();
}

async function interact(messageId, customId, values) {
  const key = `${messageId}|${customId}`;
  app.busy.add(key);
  app.failures.delete(messageId);
  renderMessages();
  try {
    const result = await api.component({ user: app.me, message: messageId, customId, ...(values ? { values } : {}) });
    app.busy.delete(key);
    afterInteraction(result, messageId);
  } catch (err) {
    app.busy.delete(key);
    app.failures.set(messageId, err.message);
    renderMessages();
  }
}

function findComponent(messageId, customId) {
  const m = viewMessages().find((x) => x.id === messageId);
  const walk = (list) => {
    for (const c of list ?? []) {
      if (c.custom_id === customId) return c;
      const inner = walk(c.components) ?? (c.accessory ? walk([c.accessory]) : null);
      if (inner) return inner;
    }
    return null;
  };
  return m ? walk(m.components) : null;
}

function selectItems(c) {
  const people = () => members().map((u) => ({ label: displayName(u), value: u.id, description: u.username }));
  const roles = () => app.snap.guild.roles.map((r) => ({ label: `@${r.name.replace(/^@/, '')}`, value: r.id }));
  switch (c.type) {
    case 3:
      return (c.options ?? []).map((o) => ({ label: o.label, value: o.value, description: o.description, emoji: o.emoji?.name, selected: !!o.default }));
    case 5:
      return people();
    case 6:
      return roles();
    case 7:
      return [...people(), ...roles()];
    case 8:
      return app.snap.channels.filter((ch) => !c.channel_types?.length || c.channel_types.includes(ch.type)).map((ch) => ({ label: `#${ch.name}`, value: ch.id }));
    default:
      return [];
  }
}

const selects = new SelectMenus({
  component: findComponent,
  items: selectItems,
  send: (messageId, customId, values) => void interact(messageId, customId, values),
});

// ---- toasts ----------------------------------------------------------------------------------

function toast(text, kind = 'info', { title = '', timeout = kind === 'error' ? 12000 : 5000, onClick = null } = {}) {
  const el = document.createElement('div');
  el.className = `toast toast-${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  el.innerHTML = `${title ? `<div class="toast-title">${esc(title)}</div>` : ''}<div class="toast-text">${esc(text)}</div><button type="button" class="toast-close" aria-label="Dismiss">✕</button>`;
  el.querySelector('.toast-close').addEventListener('click', (e) => {
    e.stopPropagation();
    el.remove();
  });
  if (onClick) el.addEventListener('click', onClick);
  $('#toasts').appendChild(el);
  setTimeout(() => el.remove(), timeout);
}

function showRejection(r) {
  const details = r.details?.length ? `\n${r.details.join('\n')}` : '';
  toast(`${r.method} ${r.path}\n${r.status} · ${r.code} ${r.message}${details}`, 'error', {
    title: `Discord refused a request from ${displayName(bot())}`,
    onClick: () => toggleErrors(true),
  });
}

function toggleErrors(force) {
  const panel = $('#errors-panel');
  const open = force ?? panel.hidden;
  panel.hidden = !open;
  $('#errors-btn').setAttribute('aria-expanded', String(open));
  if (open) {
    app.rejectionsSeen = app.snap.rejections.length;
    renderErrors();
  }
}

// ---- live events -----------------------------------------------------------------------------

let snapTimer = null;
let snapWaiters = [];
function reloadSnapSoon() {
  return new Promise((resolve) => {
    snapWaiters.push(resolve);
    clearTimeout(snapTimer);
    snapTimer = setTimeout(async () => {
      const waiters = snapWaiters;
      snapWaiters = [];
      try {
        app.snap = await api.state();
        setSkew(app.snap.clock.now);
        renderChrome();
      } catch {
        /* the event stream's reconnect reloads everything */
      }
      waiters.forEach((w) => w());
    }, 30);
  });
}

async function onMessageEvent(d, kind, retried = false) {
  const m = d.message;
  if (d.visible_to && d.visible_to !== meUser().id) return;
  const key = keyOf(d.channel_id);
  if (!key) {
    const known = app.snap.dm_channels.some((c) => c.id === d.channel_id);
    if (!known && !retried) {
      await reloadSnapSoon(); // a DM channel opened since the page loaded
      return onMessageEvent(d, kind, true);
    }
    return;
  }
  const list = app.cache.get(key);
  if (list) upsert(list, m);
  if (key === app.view) renderMessages();
  else if (kind === 'create' && m.author.id !== meUser().id) {
    app.unread.set(key, (app.unread.get(key) ?? 0) + 1);
    if ((m.mentions ?? []).some((u) => u.id === meUser().id)) app.mentions.set(key, (app.mentions.get(key) ?? 0) + 1);
    renderSidebar();
  }
}

function onDeleteEvent(d) {
  const key = keyOf(d.channelId);
  const list = key ? app.cache.get(key) : null;
  if (!list) return;
  const i = list.findIndex((m) => m.id === d.id);
  if (i >= 0) list.splice(i, 1);
  if (key === app.view) renderMessages();
}

function connectEvents() {
  return followEvents({
    'message.create': (d) => onMessageEvent(d, 'create'),
    'message.update': (d) => onMessageEvent(d, 'update'),
    'message.delete': onDeleteEvent,
    rejection: (d) => {
      app.snap.rejections.push(d.rejection);
      if (app.snap.rejections.length > 50) app.snap.rejections.shift();
      renderErrors();
      showRejection(d.rejection);
    },
    'clock.advance': (d) => {
      setSkew(d.now);
      app.snap.clock = { now: d.now, offsetMs: d.offsetMs };
      renderClock();
      renderMessages();
    },
    'channel.update': (d) => channelSettings.onEvent('channel.update', d),
    'role.update': (d) => {
      channelSettings.onEvent('role.update', d);
      void reloadSnapSoon();
    },
    'channel.delete': (d) => {
      channelSettings.onEvent('channel.delete', d);
      void reloadSnapSoon();
    },
    'commands.update': () => void reloadSnapSoon(),
    'dms.update': () => void reloadSnapSoon(),
    'stream.offline': (offline) => document.body.classList.toggle('is-offline', offline),
    'stream.resync': () => void reloadSnapSoon().then(() => loadView()),
  });
}

// ---- actions ---------------------------------------------------------------------------------

async function switchUser(alias) {
  if (alias === app.me) return;
  selects.close(false);
  app.me = alias;
  try {
    localStorage.setItem('discord-emulator.as', alias);
  } catch {
    /* private mode */
  }
  for (const m of [app.cache, app.unread, app.mentions, app.failures, app.local]) m.clear();
  app.busy.clear();
  app.dismissed.clear();
  app.highlightId = null;
  renderChrome();
  composer.reset();
  updateAddress();
  renderMessages({ toBottom: true });
  await loadView();
}

async function advanceClock(ms, label) {
  const buttons = document.querySelectorAll('[data-advance], #clock-custom-go');
  buttons.forEach((b) => (b.disabled = true));
  $('#clock-status').textContent = `Advancing ${label}…`;
  try {
    const r = await api.advanceClock(ms);
    setSkew(r.now);
    app.snap.clock = r;
    renderClock();
    renderMessages();
    $('#clock-status').textContent = `Advanced ${label}. Due deadlines and reminders have run.`;
  } catch (err) {
    $('#clock-status').textContent = err.message;
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

function renderChrome() {
  renderSwitcher();
  renderSidebar();
  renderMembers();
  renderClock();
  renderErrors();
  if (app.view) renderHeader();
}

document.addEventListener('click', (e) => {
  const t = e.target;
  if (selects.open && !selects.contains(t)) selects.close(true);
  const clockPop = $('#clock-pop');
  if (!clockPop.hidden && !t.closest('#clock-pop, #clock-btn')) clockPop.hidden = true;
  let el;
  if ((el = t.closest('[data-jump]'))) {
    e.preventDefault();
    const [channelId, messageId] = el.dataset.jump.split('/');
    jump(channelId, messageId);
  } else if ((el = t.closest('[data-channel]'))) {
    e.preventDefault();
    jump(el.dataset.channel, '');
  } else if ((el = t.closest('[data-open]'))) {
    e.preventDefault();
    void openView(el.dataset.open);
  } else if ((el = t.closest('[data-as]'))) {
    void switchUser(el.dataset.as);
  } else if ((el = t.closest('[data-action="button"]'))) {
    void interact(el.dataset.msg, el.dataset.cid);
  } else if ((el = t.closest('.select-face'))) {
    selects.toggle(el.closest('[data-action="select"]'));
  } else if ((el = t.closest('[data-action="dismiss"]'))) {
    app.dismissed.add(el.dataset.msg);
    renderMessages();
  } else if ((el = t.closest('.spoiler'))) {
    el.classList.add('is-revealed');
  } else if ((el = t.closest('[data-advance]'))) {
    void advanceClock(Number(el.dataset.advance) * HOUR, el.textContent.trim());
  } else if (t.closest('#clock-custom-go')) {
    const hours = Number($('#clock-custom').value);
    if (Number.isFinite(hours) && hours > 0) void advanceClock(hours * HOUR, `+${hours} h`);
  } else if (t.closest('#clock-btn')) {
    clockPop.hidden = !clockPop.hidden;
    $('#clock-btn').setAttribute('aria-expanded', String(!clockPop.hidden));
  } else if (t.closest('#errors-btn')) {
    toggleErrors();
  } else if (t.closest('#errors-clear')) {
    void api.clearRejections().then(() => {
      app.snap.rejections = [];
      app.rejectionsSeen = 0;
      renderErrors();
    });
  } else if (t.closest('#toggle-sidebar')) {
    const open = !document.body.classList.contains('sidebar-open');
    document.body.classList.toggle('sidebar-open', open);
    t.closest('#toggle-sidebar').setAttribute('aria-expanded', String(open));
  } else if (t.closest('#scrim')) {
    document.body.classList.remove('sidebar-open');
  } else if (t.closest('#toggle-members')) {
    const shown = document.body.classList.toggle(window.matchMedia('(max-width: 999px)').matches ? 'members-open' : 'members-hidden');
    $('#toggle-members').setAttribute('aria-pressed', String(window.matchMedia('(max-width: 999px)').matches ? shown : !shown));
  }
});

document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  selects.close(true);
  if (!$('#clock-pop').hidden) $('#clock-pop').hidden = true;
  document.body.classList.remove('sidebar-open', 'members-open');
});

installLightbox($('#message-list'));

// ---- start -----------------------------------------------------------------------------------

const composer = new Composer($('#composer'), {
  me: () => app.me,
  channelRef: () => (app.view === 'dm' ? 'dm' : app.view),
  placeholder: () => `Message ${viewLabel()}`,
  entries: () => {
    const inDm = app.view === 'dm';
    const me = meUser();
    const perms = BigInt(me.permissions);
    const cmds = app.snap.commands.filter((c) => {
      if (inDm) return !c.guild_id && (c.contexts ? c.contexts.includes(1) : c.dm_permission !== false);
      if (c.guild_id && c.guild_id !== app.snap.guild.id) return false;
      if (!c.guild_id && app.snap.commands.some((g) => g.guild_id && g.name === c.name)) return false;
      if (c.default_member_permissions == null) return true;
      const need = BigInt(c.default_member_permissions);
      const admin = (perms & 8n) !== 0n || me.id === app.snap.guild.owner_id;
      return admin || (need !== 0n && (perms & need) === need);
    });
    return commandEntries(cmds).sort((a, b) => a.path.localeCompare(b.path));
  },
  members: () => members(),
  roles: () => app.snap.guild.roles,
  channels: () => app.snap.channels,
  bot,
  api,
  afterInteraction: (result) => afterInteraction(result, null),
});

const channelSettings = new ChannelSettings({
  api,
  panel: $('#perm-panel'),
  button: $('#channel-settings-btn'),
  me: () => meUser(),
  ownerId: () => app.snap.guild.owner_id,
  channel: () => (app.view && app.view !== 'dm' ? guildChannel(app.view) : null),
  botName: () => displayName(bot()),
});

async function start() {
  const params = new URLSearchParams(location.search);
  let stored = null;
  try {
    stored = localStorage.getItem('discord-emulator.as');
  } catch {
    /* private mode */
  }
  app.snap = await api.state();
  setSkew(app.snap.clock.now);
  const aliases = app.snap.users.map((u) => u.alias).filter(Boolean);
  app.me = [params.get('as'), stored, actors()[0]?.alias].find((a) => a && aliases.includes(a));
  const wanted = (params.get('channel') ?? '').replace(/^#/, '');
  const byName = app.snap.channels.find((c) => c.name === wanted || c.id === wanted);
  app.view = wanted === 'dm' ? 'dm' : (byName ?? app.snap.channels.find((c) => c.name === 'general') ?? app.snap.channels[0]).id;
  renderChrome();
  renderHeader();
  composer.reset();
  updateAddress();
  followBottom();
  // Messages load once events flow, so nothing sent in between is missed; the snapshot (read
  // before) is read again for the same reason.
  await connectEvents();
  await reloadSnapSoon();
  await loadView();
  setInterval(() => {
    renderClock();
    renderMessages();
  }, 30_000);
  document.body.classList.add('is-ready');
}

start().catch((err) => {
  document.body.classList.add('is-ready');
  toast(`The playground could not start: ${err.message}`, 'error', { timeout: 600_000 });
});
