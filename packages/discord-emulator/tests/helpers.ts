import { Client, Events, GatewayIntentBits, Partials, type Interaction } from 'discord.js';
import { startEmulator, silentLogger, type Emulator, type EmulatorOptions, type exampleServer, type ServerDefinition } from '../src/index.ts';
import type { EmulatorClient } from '../src/client.ts';

export interface Harness<S extends ServerDefinition = typeof exampleServer> {
  emulator: Emulator<S>;
  client: Client;
  emu: EmulatorClient;
  /** The current interaction handler (tests replace it). */
  onInteraction(handler: (i: Interaction) => Promise<void> | void): void;
  stop(): Promise<void>;
}

/** Starts an emulator on a random port and logs a real discord.js client into it. */
export async function startHarness<const S extends ServerDefinition = typeof exampleServer>(opts: EmulatorOptions<S> & { intents?: GatewayIntentBits[] } = {}): Promise<Harness<S>> {
  const { intents, ...emulatorOpts } = opts;
  const emulator = await startEmulator<S>({ port: 0, logger: silentLogger, ...emulatorOpts });
  const client = new Client({
    intents: intents ?? [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages],
    partials: [Partials.Channel],
    rest: { api: emulator.apiBase },
  });
  let handler: (i: Interaction) => Promise<void> | void = () => undefined;
  client.on(Events.InteractionCreate, (i) => {
    void (async () => {
      try {
        await handler(i);
      } catch (err) {
        client.emit('error', err as Error);
      }
    })();
  });
  client.on('error', () => undefined);
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(emulator.botToken);
  await ready;
  return {
    emulator,
    client,
    emu: emulator.client,
    onInteraction(h) {
      handler = h;
    },
    async stop() {
      await client.destroy();
      await emulator.close();
    },
  };
}
