// A modal the bot opened (interaction callback type 9): text inputs (rows or labels), string
// selects inside labels and text displays. Submitting sends POST /_test/modals as the acting user.

import { escapeHtml as esc } from './markdown.js';

function field(c, label, description) {
  if (c.type === 4) {
    const required = c.required !== false;
    const attrs = `name="${esc(c.custom_id)}" ${required ? 'required' : ''} ${c.min_length != null ? `minlength="${c.min_length}"` : ''} ${c.max_length != null ? `maxlength="${c.max_length}"` : ''} placeholder="${esc(c.placeholder ?? '')}"`;
    const input = c.style === 2 ? `<textarea ${attrs} rows="4">${esc(c.value ?? '')}</textarea>` : `<input ${attrs} value="${esc(c.value ?? '')}">`;
    return `<label class="modal-field"><span class="modal-label">${esc(label ?? c.label ?? c.custom_id)}${required ? '<span class="req">*</span>' : ''}</span>${description ? `<span class="modal-desc">${esc(description)}</span>` : ''}${input}</label>`;
  }
  if (c.type === 3) {
    const multi = (c.max_values ?? 1) > 1;
    const options = (c.options ?? []).map((o) => `<option value="${esc(o.value)}"${o.default ? ' selected' : ''}>${esc(o.label)}</option>`).join('');
    return `<label class="modal-field"><span class="modal-label">${esc(label ?? c.custom_id)}</span>${description ? `<span class="modal-desc">${esc(description)}</span>` : ''}<select name="${esc(c.custom_id)}" data-select="1"${multi ? ' multiple' : ''}>${multi ? '' : `<option value="">${esc(c.placeholder ?? 'Make a selection')}</option>`}${options}</select></label>`;
  }
  return `<div class="modal-field modal-unsupported">This kind of modal field (type ${c.type}) is not supported by the emulator page.</div>`;
}

function body(components) {
  return (components ?? [])
    .map((c) => {
      if (c.type === 1) return (c.components ?? []).map((x) => field(x)).join('');
      if (c.type === 18) return field(c.component ?? {}, c.label, c.description);
      if (c.type === 10) return `<div class="modal-text">${esc(c.content ?? '')}</div>`;
      return '';
    })
    .join('');
}

/** Opens the modal; `submit(values)` sends it and throws to keep it open with the error shown. */
export function openModal(dialog, modal, submit) {
  dialog.innerHTML = `<form class="modal-form" method="dialog">
<header class="modal-head"><h2 id="modal-title">${esc(modal.title)}</h2><button type="button" class="icon-btn" data-close aria-label="Close">✕</button></header>
<div class="modal-body">${body(modal.components)}</div>
<div class="modal-error" role="alert" hidden></div>
<footer class="modal-foot"><button type="button" class="linklike" data-close>Cancel</button><button type="submit" class="btn btn-s1">Submit</button></footer></form>`;
  dialog.setAttribute('aria-labelledby', 'modal-title');
  const form = dialog.querySelector('form');
  const error = dialog.querySelector('.modal-error');
  dialog.querySelectorAll('[data-close]').forEach((b) => b.addEventListener('click', () => dialog.close()));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const values = {};
    for (const el of form.querySelectorAll('[name]')) {
      if (el.dataset.select) {
        const picked = [...el.selectedOptions].map((o) => o.value).filter(Boolean);
        if (picked.length) values[el.name] = picked;
      } else values[el.name] = el.value;
    }
    try {
      await submit(values);
      dialog.close();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  dialog.showModal();
}
