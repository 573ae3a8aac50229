// Live events from the emulator (GET /_test/events, Server-Sent Events). Browsers allow about six
// connections per server, so the tabs of one browser share one stream: the tab holding a Web Lock
// opens it and relays every event to the others over a BroadcastChannel; when that tab closes,
// another takes the lock and the stream over (and catches up, since events may have been missed).

const NAME = 'stonehall-playground-events';

/**
 * handlers: { [emulator event name]: (data) => void } plus two of the stream's own, relayed alike:
 * "stream.offline" (true | false) and "stream.resync" (reload: events may have been missed).
 *
 * Returns a promise that settles once this tab receives events (its own stream is open, or the
 * leading tab's is): anything the page loads after that is kept current by the events, so a page
 * that loads its messages before then can miss one. It settles after 5 s regardless (the page then
 * shows itself offline until the stream comes back and resyncs).
 */
export function followEvents(handlers) {
  let markLive;
  const live = new Promise((resolve) => {
    markLive = resolve;
    setTimeout(resolve, 5000);
  });
  let streamOpen = false;
  const dispatch = (name, data) => handlers[name]?.(data);
  const shared = typeof BroadcastChannel === 'function' && !!navigator.locks;
  const channel = shared ? new BroadcastChannel(NAME) : null;
  const emit = (name, data) => {
    dispatch(name, data);
    channel?.postMessage({ name, data });
  };
  channel?.addEventListener('message', (e) => {
    const { name, data } = e.data;
    if (name === 'stream.ping') {
      if (streamOpen) channel.postMessage({ name: 'stream.live' });
    } else if (name === 'stream.live') markLive();
    else dispatch(name, data);
  });

  // Held for the life of the tab.
  const lead = () =>
    new Promise(() => {
      const es = new EventSource('/_test/events');
      let broken = false;
      for (const name of Object.keys(handlers)) {
        if (!name.startsWith('stream.')) es.addEventListener(name, (e) => emit(name, JSON.parse(e.data)));
      }
      es.addEventListener('open', () => {
        streamOpen = true;
        markLive();
        channel?.postMessage({ name: 'stream.live' });
        emit('stream.offline', false);
        if (broken) {
          broken = false;
          emit('stream.resync');
        }
      });
      es.addEventListener('error', () => {
        streamOpen = false;
        broken = true;
        emit('stream.offline', true);
      });
    });

  if (!shared) {
    void lead();
    return live;
  }
  void navigator.locks.request(NAME, { ifAvailable: true }, async (lock) => {
    if (lock) return lead();
    channel.postMessage({ name: 'stream.ping' }); // the leading tab answers "stream.live" if its stream is open
    void navigator.locks.request(NAME, async () => {
      dispatch('stream.resync');
      await lead();
    });
  });
  return live;
}
