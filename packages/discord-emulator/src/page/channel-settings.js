// A channel's settings as a moderator sees them: what the bot may do in the channel, with a switch
// for each permission a bot that posts boards needs. A switch writes the bot's own member overwrite
// in the channel (PUT /_test/channels/:channel/overwrites {user: "bot"}), as a moderator would in
// Discord's "Edit Channel > Permissions"; the bot receives CHANNEL_UPDATE. Self-contained: app.js
// only places the button, passes what it knows, and forwards the emulator's events here.

import { escapeHtml as esc } from './markdown.js';

/** The permissions shown, in Discord's order, with the words Discord's settings use. */
export const BOT_PERMISSIONS = [
  { name: 'VIEW_CHANNEL', label: 'View Channel', help: 'See the channel at all: without it nothing else counts.' },
  { name: 'SEND_MESSAGES', label: 'Send Messages', help: 'Post boards, challenges and announcements.' },
  { name: 'EMBED_LINKS', label: 'Embed Links', help: 'Without it Discord posts the message but drops its embeds.' },
  { name: 'ATTACH_FILES', label: 'Attach Files', help: 'Upload pictures, such as a board drawn as an image.' },
  { name: 'READ_MESSAGE_HISTORY', label: 'Read Message History', help: 'Read earlier messages, reply to them.' },
];

/** Guild-wide permissions that let a member change a channel's permissions. */
const MANAGERS = (1n << 3n) | (1n << 4n) | (1n << 5n) | (1n << 28n); // ADMINISTRATOR, MANAGE_CHANNELS, MANAGE_GUILD, MANAGE_ROLES

export class ChannelSettings {
  /**
   * deps: { api, panel: HTMLElement, button: HTMLElement, me(): user with .permissions and .id,
   *         ownerId(): string, channel(): {id, name} | null (the open guild channel), botName(): string,
   *         toast(text, kind) }
   */
  constructor(deps) {
    this.deps = deps;
    this.view = null;
    this.channelId = null;
    this.busy = false;
    this.error = '';
    deps.button.addEventListener('click', () => (deps.panel.hidden ? void this.open() : this.close()));
    deps.panel.addEventListener('change', (e) => {
      const box = e.target.closest('input[data-perm]');
      if (box) void this.toggle(box.dataset.perm, box.checked);
    });
    deps.panel.addEventListener('click', (e) => {
      if (e.target.closest('[data-perm-close]')) this.close();
      else if (e.target.closest('[data-perm-reset]')) void this.reset();
    });
  }

  /** Whether the acting user may change channel permissions (Discord: Manage Channels/Roles, Manage Server, Administrator, owner). */
  allowed() {
    const me = this.deps.me();
    return me.id === this.deps.ownerId() || (BigInt(me.permissions) & MANAGERS) !== 0n;
  }

  /** Called when the open channel or the acting user changes. */
  refreshButton() {
    const channel = this.deps.channel();
    const show = !!channel && this.allowed();
    this.deps.button.hidden = !show;
    if (!show || (this.channelId && channel?.id !== this.channelId)) this.close();
  }

  async open() {
    const channel = this.deps.channel();
    if (!channel || !this.allowed()) return;
    this.channelId = channel.id;
    this.deps.panel.hidden = false;
    this.deps.button.setAttribute('aria-expanded', 'true');
    this.view = null;
    this.render();
    await this.load();
  }

  close() {
    this.deps.panel.hidden = true;
    this.deps.button.setAttribute('aria-expanded', 'false');
    this.channelId = null;
    this.view = null;
    this.error = '';
  }

  async load() {
    if (!this.channelId) return;
    try {
      this.view = await this.deps.api.channelPermissions(this.channelId);
      this.error = '';
    } catch (err) {
      this.error = err.message;
    }
    this.render();
  }

  /** An emulator event: a channel's overwrites or a role's permissions changed, or a channel went. */
  onEvent(kind, d) {
    if (!this.channelId) return;
    if (kind === 'channel.delete' && d.channel_id === this.channelId) return this.close();
    if (kind === 'role.update' || (kind === 'channel.update' && d.channel?.id === this.channelId)) void this.load();
  }

  /** The bot's own overwrite in the channel, as allow/deny name lists. */
  own() {
    const o = this.view?.overwrites.find((x) => x.type === 1 && x.id === this.view.member.id);
    return { allow: [...(o?.allow ?? [])], deny: [...(o?.deny ?? [])] };
  }

  async toggle(name, on) {
    if (!this.view || this.busy) return;
    const { allow, deny } = this.own();
    const without = (list) => list.filter((n) => n !== name);
    let next;
    if (on) {
      // A member allow outweighs every role and @everyone deny (Discord applies the member's own overwrite last).
      next = { allow: [...without(allow), name], deny: without(deny) };
    } else {
      next = { allow: without(allow), deny: [...without(deny), name] };
    }
    await this.write(next);
  }

  async reset() {
    await this.write({ allow: [], deny: [] });
  }

  async write({ allow, deny }) {
    this.busy = true;
    this.render();
    try {
      this.view = allow.length || deny.length
        ? await this.deps.api.setOverwrite({ channel: this.channelId, user: 'bot', allow, deny })
        : await this.deps.api.clearOverwrite({ channel: this.channelId, user: 'bot' });
      this.error = '';
    } catch (err) {
      this.error = err.message;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  render() {
    const panel = this.deps.panel;
    const channel = this.deps.channel();
    const bot = this.deps.botName();
    const head = `<div class="perm-panel-head"><h2 id="perm-panel-title">What ${esc(bot)} may do in #${esc(channel?.name ?? '')}</h2><button type="button" class="icon-btn" data-perm-close aria-label="Close">✕</button></div>`;
    if (!this.view) {
      panel.innerHTML = `${head}<p class="perm-help">${this.error ? esc(this.error) : 'Loading…'}</p>`;
      return;
    }
    const own = this.own();
    const effective = new Set(this.view.effective);
    const rows = BOT_PERMISSIONS.map((p) => {
      const on = effective.has(p.name);
      const granted = this.view.permissions.includes(p.name);
      // Granted but not in effect: an implicit rule (no View Channel, or no Send Messages for files and embeds).
      const state = on ? 'Allowed' : granted ? 'Allowed, but has no effect here' : 'Not allowed';
      const mark = own.allow.includes(p.name) ? ' (allowed for the bot here)' : own.deny.includes(p.name) ? ' (denied for the bot here)' : '';
      return `<li class="perm-row${on ? ' is-on' : ''}"><label class="perm-switch"><input type="checkbox" role="switch" data-perm="${p.name}"${granted ? ' checked' : ''}${this.busy ? ' disabled' : ''} aria-describedby="perm-${p.name}"><span class="perm-label">${esc(p.label)}</span></label><span class="perm-state" id="perm-${p.name}">${esc(state + mark)}</span><span class="perm-item-help">${esc(p.help)}</span></li>`;
    }).join('');
    const missing = BOT_PERMISSIONS.filter((p) => !effective.has(p.name)).map((p) => p.label);
    const summary = missing.length ? `${esc(bot)} is missing: ${esc(missing.join(', '))}.` : `${esc(bot)} has everything it needs here.`;
    panel.innerHTML = `${head}<p class="perm-help">Switches change ${esc(bot)}'s own permission overwrite in this channel, as Edit Channel › Permissions does on Discord. ${esc(bot)} is told at once.</p><p class="perm-summary" role="status">${summary}</p><ul class="perm-list">${rows}</ul><div class="perm-foot"><button type="button" class="btn btn-s2" data-perm-reset${own.allow.length || own.deny.length ? '' : ' disabled'}>Remove ${esc(bot)}'s overwrite</button></div>${this.error ? `<p class="perm-error" role="alert">${esc(this.error)}</p>` : ''}`;
  }
}
