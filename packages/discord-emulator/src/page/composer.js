// The message box. Plain text is sent as the acting user's message. "/" lists the bot's registered
// slash commands (each subcommand as its own entry, with its description); picking one turns the box
// into a form built from the command's registered options: users from a member picker, roles and
// channels from theirs, choices and booleans as dropdowns, and autocomplete options asking the bot
// (POST /_test/autocomplete) as Discord does. Typing a whole line ("/knucklebones place column:2",
// "/krellstone alias set stone:3 alias:Big Red") fills the same form (command-line.js reads it).

import { parseCommandLine, withArticle } from './command-line.js';
import { escapeHtml as esc } from './markdown.js';
import { avatarHtml, displayName } from './messages.js';

const OPT = { SUB: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };
const TYPE_LABEL = { 3: 'text', 4: 'integer', 5: 'true / false', 6: 'user', 7: 'channel', 8: 'role', 9: 'user or role', 10: 'number', 11: 'file' };

/** Flattens registered commands into what the "/" list shows: one entry per runnable path. */
export function commandEntries(commands) {
  const out = [];
  for (const c of commands) {
    if ((c.type ?? 1) !== 1) continue;
    const opts = c.options ?? [];
    const subs = opts.filter((o) => o.type === OPT.SUB || o.type === OPT.GROUP);
    if (!subs.length) {
      out.push({ path: c.name, description: c.description, options: opts });
      continue;
    }
    for (const s of subs) {
      if (s.type === OPT.SUB) out.push({ path: `${c.name} ${s.name}`, description: s.description, options: s.options ?? [] });
      else for (const g of s.options ?? []) out.push({ path: `${c.name} ${s.name} ${g.name}`, description: g.description, options: g.options ?? [] });
    }
  }
  return out;
}

export class Composer {
  /**
   * host: { me(), channelRef(), placeholder(), entries(), members(), roles(), channels(), bot(),
   *         api, afterInteraction(result), notify(text) }
   */
  constructor(root, host) {
    this.host = host;
    this.root = root;
    this.form = root.querySelector('form');
    this.input = root.querySelector('textarea');
    this.cmdBox = root.querySelector('.cmd-form');
    this.popup = root.querySelector('.popup');
    this.errorEl = root.querySelector('.composer-error');
    this.sendBtn = root.querySelector('.send-btn');
    this.popupItems = [];
    this.active = 0;
    this.cmd = null; // { entry, fields: [{ opt, el, picked }] }
    this.acSeq = 0;
    this.busy = false;

    this.input.addEventListener('input', () => this.onInput());
    this.input.addEventListener('keydown', (e) => this.onKey(e, null));
    this.input.addEventListener('blur', () => setTimeout(() => { if (!this.cmd && document.activeElement !== this.input) this.closePopup(); }, 120));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.form.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.cmd && !e.target.matches('input, textarea')) this.closeCommand();
    });
    this.popup.addEventListener('mousedown', (e) => e.preventDefault()); // keep focus in the field
    this.popup.addEventListener('click', (e) => {
      const item = e.target.closest('[data-index]');
      if (item) this.choose(Number(item.dataset.index));
    });
    this.cmdBox.addEventListener('click', (e) => {
      if (e.target.closest('[data-action="cancel-command"]')) return this.closeCommand();
      const folded = e.target.closest('.opt-folded');
      if (folded) {
        folded.classList.remove('opt-folded');
        folded.querySelector('input')?.focus();
      }
    });
  }

  /** On a change of channel or user. */
  reset() {
    this.closeCommand();
    this.input.value = '';
    this.autosize();
    this.setError('');
    this.input.placeholder = this.host.placeholder();
  }

  setError(text) {
    this.errorEl.textContent = text;
    this.errorEl.hidden = !text;
  }

  autosize() {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, 200)}px`;
  }

  // ---- "/" list -------------------------------------------------------------------------------

  onInput() {
    this.autosize();
    this.setError('');
    const text = this.input.value;
    if (!text.startsWith('/') || text.includes('\n')) return this.closePopup();
    const lower = text.slice(1).toLowerCase();
    const entries = this.host.entries();
    // A whole command path followed by options typed as a line: that one command is the match.
    const typed = this.typedEntry();
    if (typed) return this.showCommandList([typed], typed.path, true);
    const q = lower.trim();
    const matches = entries.filter((e) => e.path.startsWith(q) || e.path.split(' ').some((w) => w.startsWith(q)));
    this.showCommandList(matches, q);
  }

  /** The command whose whole path starts the typed line ("/knucklebones place column:2"), if any. */
  typedEntry() {
    const { entry } = parseCommandLine(this.input.value, this.host.entries());
    return entry && this.input.value.slice(1).toLowerCase().startsWith(`${entry.path} `) ? entry : undefined;
  }

  showCommandList(matches, q, line = false) {
    const bot = this.host.bot();
    this.popupMode = 'commands';
    this.popupItems = matches.map((e) => ({ entry: e }));
    this.active = 0;
    const head = line
      ? `<div class="popup-head"><kbd>Enter</kbd> sends the line as typed · <kbd>Tab</kbd> fills the options in a form</div>`
      : `<div class="popup-head">${q ? `Commands matching <b>/${esc(q)}</b>` : 'Slash commands'}</div>`;
    if (!matches.length) {
      this.renderPopup(`${head}<div class="popup-empty">No commands match. ${this.host.channelRef() === 'dm' ? 'The bot’s commands are for servers, not DMs.' : ''}</div>`);
      return;
    }
    const app = `<div class="popup-app">${avatarHtml(bot, 'avatar-xs')}<span>${esc(displayName(bot))}</span></div>`;
    const items = matches
      .map((e, i) => {
        const req = e.options.filter((o) => o.required).map((o) => `<span class="slash-arg">${esc(o.name)}</span>`).join('');
        const optional = e.options.filter((o) => !o.required).length;
        return `<div class="popup-item slash-item" role="option" data-index="${i}" id="popup-${i}">
<div class="slash-main"><span class="slash-name">/${esc(e.path)}</span>${req}${optional ? `<span class="slash-optional">+${optional} optional</span>` : ''}</div>
<div class="slash-desc">${esc(e.description)}</div><span class="slash-appname">${esc(displayName(bot))}</span></div>`;
      })
      .join('');
    this.renderPopup(head + app + items);
  }

  renderPopup(html) {
    this.popup.innerHTML = html;
    this.popup.hidden = false;
    this.highlight();
  }

  highlight() {
    this.popup.querySelectorAll('[data-index]').forEach((el) => el.classList.toggle('is-active', Number(el.dataset.index) === this.active));
    this.popup.querySelector('.is-active')?.scrollIntoView({ block: 'nearest' });
  }

  closePopup() {
    this.popup.hidden = true;
    this.popup.innerHTML = '';
    this.popupItems = [];
    this.popupMode = null;
  }

  choose(index) {
    const item = this.popupItems[index];
    if (!item) return;
    if (this.popupMode === 'commands') {
      const typed = this.typedEntry();
      this.openCommand(item.entry, typed === item.entry ? parseCommandLine(this.input.value, [typed]).values : {});
    }
    else if (this.popupMode === 'options' && this.focusField) this.pick(this.focusField, item);
  }

  onKey(e, field) {
    const open = !this.popup.hidden && this.popupItems.length > 0;
    if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const n = this.popupItems.length;
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.highlight();
      return;
    }
    if (open && (e.key === 'Tab' || e.key === 'Enter') && !e.shiftKey && (this.popupMode === 'commands' || (field && this.popupActiveValid))) {
      e.preventDefault();
      // A line with its options typed out is sent as it is; otherwise the pick opens the form.
      if (e.key === 'Enter' && this.popupMode === 'commands' && this.typedEntry()) void this.submit();
      else this.choose(this.active);
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      if (!this.popup.hidden && field === null) this.closePopup();
      else if (!this.popup.hidden && this.popupItems.length) this.closePopup();
      else if (this.cmd) this.closeCommand();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void this.submit();
    }
  }

  // ---- command form ---------------------------------------------------------------------------

  openCommand(entry, values) {
    this.closePopup();
    this.setError('');
    const fields = entry.options.map((opt) => ({ opt, el: null, picked: null }));
    this.cmd = { entry, fields };
    const desc = esc(entry.description);
    this.cmdBox.innerHTML = `<div class="cmd-line"><span class="cmd-chip" title="${desc}">/${esc(entry.path)}</span>${fields
      .map(({ opt }) => {
        const kind = TYPE_LABEL[opt.type] ?? '';
        // Optional options start folded ("+ game"), as Discord lists them apart; a click unfolds one.
        const folded = !opt.required && values[opt.name] === undefined;
        return `<label class="opt${opt.required ? ' opt-required' : ''}${folded ? ' opt-folded' : ''}" data-opt="${esc(opt.name)}" title="${esc(opt.description)}"><span class="opt-name">${esc(opt.name)}${opt.required ? '' : '<span class="opt-optional">optional</span>'}</span><input class="opt-input" data-opt="${esc(opt.name)}" autocomplete="off" spellcheck="false" aria-label="${esc(opt.name)}: ${esc(opt.description)}" placeholder="${esc(kind)}"${opt.type === OPT.ATTACHMENT ? ' disabled' : ''}></label>`;
      })
      .join('')}<button type="button" class="cmd-cancel" data-action="cancel-command" aria-label="Cancel the command" title="Cancel (Esc)">✕</button></div>
<div class="cmd-help">${desc}${fields.length ? '' : ' · no options'} · <kbd>Enter</kbd> to send · <kbd>Esc</kbd> to cancel</div>`;
    this.cmdBox.hidden = false;
    this.input.hidden = true;
    this.input.value = '';
    for (const f of fields) {
      f.el = this.cmdBox.querySelector(`input[data-opt="${CSS.escape(f.opt.name)}"]`);
      const v = values[f.opt.name];
      if (v !== undefined) {
        f.el.value = v;
        const match = this.staticItems(f.opt)?.find((it) => it.label.toLowerCase() === v.toLowerCase() || String(it.value) === v);
        if (match) this.setPicked(f, match);
      }
      this.sizeField(f);
      f.el.addEventListener('focus', () => this.focusOn(f));
      f.el.addEventListener('blur', () => setTimeout(() => { if (this.focusField === f && !this.cmdBox.contains(document.activeElement)) this.closePopup(); }, 120));
      f.el.addEventListener('input', () => {
        f.picked = null;
        f.el.closest('.opt').classList.remove('opt-invalid', 'opt-picked');
        this.sizeField(f);
        this.focusOn(f, true);
      });
      f.el.addEventListener('keydown', (e) => this.onKey(e, f));
    }
    const first = fields.find((f) => f.opt.required && !f.el.value) ?? fields.find((f) => !f.el.closest('.opt-folded'));
    if (first) first.el.focus();
    else this.sendBtn.focus(); // nothing to fill in: Enter sends
  }

  closeCommand() {
    if (!this.cmd) return;
    this.cmd = null;
    this.focusField = null;
    this.cmdBox.hidden = true;
    this.cmdBox.innerHTML = '';
    this.input.hidden = false;
    this.closePopup();
    this.input.focus();
  }

  sizeField(f) {
    f.el.size = Math.max(6, Math.min(40, (f.el.value || f.el.placeholder).length + 1));
  }

  /** The fixed list an option picks from (choices, booleans, members, roles, channels), or null. */
  staticItems(opt) {
    if (opt.choices?.length) return opt.choices.map((c) => ({ label: c.name, value: c.value }));
    switch (opt.type) {
      case OPT.BOOLEAN:
        return [
          { label: 'True', value: true },
          { label: 'False', value: false },
        ];
      case OPT.USER:
        return this.host.members().map((u) => ({ label: displayName(u), sub: u.username, value: u.id, user: u }));
      case OPT.ROLE:
        return this.host.roles().map((r) => ({ label: r.name.startsWith('@') ? r.name : `@${r.name}`, value: r.id }));
      case OPT.MENTIONABLE:
        return [
          ...this.host.members().map((u) => ({ label: displayName(u), sub: u.username, value: u.id, user: u })),
          ...this.host.roles().map((r) => ({ label: r.name.startsWith('@') ? r.name : `@${r.name}`, value: r.id })),
        ];
      case OPT.CHANNEL:
        return this.host
          .channels()
          .filter((c) => !opt.channel_types?.length || opt.channel_types.includes(c.type))
          .map((c) => ({ label: `#${c.name}`, value: c.id }));
      default:
        return null;
    }
  }

  focusOn(f, typed = false) {
    this.focusField = f;
    const opt = f.opt;
    const head = `<div class="popup-head"><b>${esc(opt.name)}</b>${opt.required ? '' : ' <span class="opt-optional">optional</span>'} — ${esc(opt.description)}</div>`;
    if (opt.autocomplete) {
      clearTimeout(this.acTimer);
      this.acTimer = setTimeout(() => void this.autocomplete(f, head), typed ? 150 : 0);
      if (!typed) this.renderOptions(head, null, 'Loading options…');
      return;
    }
    const all = this.staticItems(opt);
    if (!all) {
      const limits = [opt.min_value != null ? `min ${opt.min_value}` : '', opt.max_value != null ? `max ${opt.max_value}` : '', opt.max_length != null ? `up to ${opt.max_length} characters` : '']
        .filter(Boolean)
        .join(', ');
      this.renderOptions(head, null, opt.type === OPT.ATTACHMENT ? 'Attachments cannot be uploaded in the emulator.' : `Type ${withArticle(TYPE_LABEL[opt.type] ?? 'value')}${limits ? ` (${limits})` : ''}.`);
      return;
    }
    const q = typed && !f.picked ? f.el.value.trim().toLowerCase() : '';
    const items = q ? all.filter((it) => it.label.toLowerCase().includes(q) || it.sub?.toLowerCase().includes(q) || String(it.value) === q) : all;
    this.renderOptions(head, items, 'Nothing matches.');
  }

  renderOptions(head, items, emptyText) {
    this.popupMode = 'options';
    this.popupItems = items ?? [];
    const picked = this.focusField?.picked;
    this.active = Math.max(0, picked ? this.popupItems.findIndex((it) => it.value === picked.value) : 0);
    this.popupActiveValid = this.popupItems.length > 0;
    const body = this.popupItems.length
      ? this.popupItems
          .map((it, i) => `<div class="popup-item option-item" role="option" data-index="${i}">${it.user ? avatarHtml(it.user, 'avatar-xs') : ''}<span class="option-label">${esc(it.label)}</span>${it.sub ? `<span class="option-sub">${esc(it.sub)}</span>` : ''}</div>`)
          .join('')
      : `<div class="popup-empty">${esc(emptyText)}</div>`;
    this.renderPopup(head + body);
  }

  async autocomplete(f, head) {
    const seq = ++this.acSeq;
    const { entry } = this.cmd ?? {};
    if (!entry) return;
    try {
      const r = await this.host.api.autocomplete({
        user: this.host.me(),
        channel: this.host.channelRef(),
        name: entry.path,
        options: this.values(f.opt.name),
        focused: f.opt.name,
      });
      if (seq !== this.acSeq || this.focusField !== f) return;
      if (!r.choices) this.renderOptions(head, null, `${displayName(this.host.bot())} did not answer (${r.error ?? 'no choices'}).`);
      else this.renderOptions(head, r.choices.map((c) => ({ label: c.name, value: c.value })), 'No options match your search.');
    } catch (err) {
      if (seq === this.acSeq) this.renderOptions(head, null, err.message);
    }
  }

  setPicked(f, item) {
    f.picked = item;
    f.el.value = item.label;
    f.el.closest('.opt').classList.add('opt-picked');
    f.el.closest('.opt').classList.remove('opt-invalid');
    this.sizeField(f);
  }

  pick(f, item) {
    this.setPicked(f, item);
    this.closePopup();
    // On to the next empty required option; when none is left, stay here so Enter sends.
    const next = this.cmd.fields.find((x) => x.opt.required && !x.el.value);
    if (next) next.el.focus();
  }

  /** Values as the test API takes them; `focused` keeps its raw text even when empty. */
  values(focused) {
    const out = {};
    for (const f of this.cmd.fields) {
      const raw = f.el.value.trim();
      if (f.opt.name === focused) out[f.opt.name] = raw;
      else if (f.picked && f.el.value === f.picked.label) out[f.opt.name] = f.picked.value;
      else if (raw !== '') {
        const match = this.staticItems(f.opt)?.find((it) => it.label.toLowerCase() === raw.toLowerCase() || it.sub?.toLowerCase() === raw.toLowerCase());
        out[f.opt.name] = match ? match.value : raw;
      }
    }
    return out;
  }

  // ---- sending --------------------------------------------------------------------------------

  async submit() {
    if (this.busy) return;
    if (this.cmd) return this.submitCommand();
    const text = this.input.value.trim();
    if (!text) return;
    if (text.startsWith('/')) {
      const { entry, path, values, stray } = parseCommandLine(text, this.host.entries());
      if (!entry) return this.setError(`There is no command /${path}. Type / to see the commands.`);
      if (stray) {
        const named = entry.options.map((o) => `${o.name}:`).join(' ');
        return this.setError(`“${stray}” is not an option of /${entry.path}: give each option as name:value${named ? ` (${named})` : ' (it takes none)'}.`);
      }
      this.openCommand(entry, values);
      return this.submitCommand();
    }
    await this.run(async () => {
      await this.host.api.sendMessage({ user: this.host.me(), channel: this.host.channelRef(), content: text });
      this.input.value = '';
      this.autosize();
    });
  }

  async submitCommand() {
    const { entry, fields } = this.cmd;
    const missing = fields.filter((f) => f.opt.required && !f.el.value.trim());
    for (const f of missing) f.el.closest('.opt').classList.add('opt-invalid');
    if (missing.length) {
      this.setError(`Fill in the required option${missing.length > 1 ? 's' : ''}: ${missing.map((f) => f.opt.name).join(', ')}.`);
      missing[0].el.focus();
      return;
    }
    await this.run(async () => {
      const result = await this.host.api.command({ user: this.host.me(), channel: this.host.channelRef(), name: entry.path, options: this.values() });
      this.closeCommand();
      this.host.afterInteraction(result, null);
    });
  }

  async run(fn) {
    this.busy = true;
    this.root.classList.add('is-sending');
    this.sendBtn.disabled = true;
    this.setError('');
    try {
      await fn();
    } catch (err) {
      this.setError(err.message);
    } finally {
      this.busy = false;
      this.root.classList.remove('is-sending');
      this.sendBtn.disabled = false;
    }
  }
}
