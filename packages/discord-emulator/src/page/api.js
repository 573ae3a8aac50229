// The page acts only through the emulator's test API (docs/emulator.md, "Test API").

export class ApiError extends Error {
  constructor(status, data, message) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

async function call(method, path, body) {
  const res = await fetch(`/_test${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!res.ok) throw new ApiError(res.status, data, data?.error ?? `${method} /_test${path} failed (${res.status})`);
  return data;
}

const enc = encodeURIComponent;

export const api = {
  state: () => call('GET', '/state'),
  /** channel: an id, a name or "dm" (the `as` user's DM with the bot). */
  messages: (channel, as) => call('GET', `/channels/${enc(channel)}/messages?as=${enc(as)}`),
  command: (req) => call('POST', '/commands', req),
  autocomplete: (req) => call('POST', '/autocomplete', req),
  component: (req) => call('POST', '/components', req),
  modal: (req) => call('POST', '/modals', req),
  sendMessage: (req) => call('POST', '/messages', req),
  advanceClock: (ms) => call('POST', '/clock/advance', { ms }),
  clock: () => call('GET', '/clock'),
  rejections: () => call('GET', '/rejections'),
  /** A channel's overwrites and the bot's permissions there. */
  channelPermissions: (channel) => call('GET', `/channels/${enc(channel)}/permissions`),
  setOverwrite: ({ channel, ...rest }) => call('PUT', `/channels/${enc(channel)}/overwrites`, rest),
  clearOverwrite: ({ channel, role, user }) =>
    call('DELETE', `/channels/${enc(channel)}/overwrites?${new URLSearchParams(role !== undefined ? { role } : { user }).toString()}`),
  clearRejections: () => call('DELETE', '/rejections'),
};
