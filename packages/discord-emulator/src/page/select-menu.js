// The dropdown of a message's select menu (string, user, role, mentionable and channel selects).
// A single choice is sent at once; a multiple choice when the menu closes, as in Discord. The menu
// opens downward, or upward when there is more room above it in the message list (a menu in the
// last message, just above the message box), as Discord's does, and is never taller than its room.

import { escapeHtml as esc } from './markdown.js';

export class SelectMenus {
  /** host: { component(messageId, customId), items(component), send(messageId, customId, values) } */
  constructor(host) {
    this.host = host;
    this.open = null;
  }

  /** Whether a click at `target` is inside the open menu (or its face). */
  contains(target) {
    return !!this.open && this.open.wrapper.contains(target);
  }

  close(send) {
    if (!this.open) return;
    const { menu, wrapper, chosen, initial, multi, messageId, customId, min } = this.open;
    this.open = null;
    menu.remove();
    wrapper.querySelector('.select-face')?.setAttribute('aria-expanded', 'false');
    const values = [...chosen];
    const changed = values.length !== initial.size || values.some((v) => !initial.has(v));
    if (send && multi && changed && values.length >= min) this.host.send(messageId, customId, values);
  }

  toggle(wrapper) {
    const wasOpen = this.open?.wrapper === wrapper;
    this.close(true);
    if (wasOpen) return;
    const messageId = wrapper.dataset.msg;
    const customId = wrapper.dataset.cid;
    const c = this.host.component(messageId, customId);
    if (!c) return;
    const items = this.host.items(c);
    const min = c.min_values ?? 1;
    const max = Math.min(c.max_values ?? 1, items.length);
    const multi = max > 1;
    const initial = new Set(items.filter((i) => i.selected).map((i) => String(i.value)));
    const menu = document.createElement('div');
    menu.className = 'select-menu';
    menu.setAttribute('role', 'listbox');
    if (multi) menu.setAttribute('aria-multiselectable', 'true');
    menu.innerHTML =
      items
        .map(
          (it) =>
            `<div class="select-option" role="option" tabindex="-1" data-value="${esc(String(it.value))}" aria-selected="${initial.has(String(it.value))}">${it.emoji ? `<span class="c-emoji">${esc(it.emoji)}</span>` : ''}<span class="select-option-text"><span class="select-option-label">${esc(it.label)}</span>${it.description ? `<span class="select-option-desc">${esc(it.description)}</span>` : ''}</span>${multi ? '<span class="checkbox" aria-hidden="true"></span>' : ''}</div>`,
        )
        .join('') + (multi ? `<div class="select-hint">Choose ${min === max ? max : `${min}–${max}`}; the choice is sent when the menu closes.</div>` : '');
    wrapper.appendChild(menu);
    place(wrapper, menu);
    wrapper.querySelector('.select-face').setAttribute('aria-expanded', 'true');
    this.open = { menu, wrapper, chosen: new Set(initial), initial, multi, messageId, customId, min, max };
    menu.addEventListener('click', (e) => {
      const opt = e.target.closest('.select-option');
      if (!opt || !this.open) return;
      const v = opt.dataset.value;
      if (!this.open.multi) {
        this.close(false);
        this.host.send(messageId, customId, [v]);
        return;
      }
      const s = this.open.chosen;
      if (s.has(v)) s.delete(v);
      else if (s.size < this.open.max) s.add(v);
      menu.querySelectorAll('.select-option').forEach((el) => el.setAttribute('aria-selected', String(s.has(el.dataset.value))));
    });
  }
}

/** The tallest a menu grows (style.css's .select-menu max-height) and the least it shrinks to. */
const MAX_HEIGHT = 320;
const MIN_HEIGHT = 120;
const GAP = 8;

/**
 * Opens `menu` below its face, or above when it does not fit below and there is more room above;
 * its height is kept to the room on that side of the visible message list (the list scrolls and
 * clips what sticks out of it, and the message box sits right under it).
 */
function place(wrapper, menu) {
  const face = wrapper.querySelector('.select-face').getBoundingClientRect();
  const pane = wrapper.closest('.messages')?.getBoundingClientRect();
  const top = Math.max(pane?.top ?? 0, 0);
  const bottom = Math.min(pane?.bottom ?? window.innerHeight, window.innerHeight);
  const below = bottom - face.bottom - GAP;
  const above = face.top - top - GAP;
  const natural = Math.min(menu.scrollHeight, MAX_HEIGHT);
  const up = natural > below && above > below;
  menu.classList.toggle('opens-up', up);
  menu.style.maxHeight = `${Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, up ? above : below))}px`;
}
