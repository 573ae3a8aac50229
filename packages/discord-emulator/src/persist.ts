/**
 * The emulator's memory in a data folder, so that a restart is invisible as it is on Discord: the
 * messages of every channel, DM channels, threads, registered commands, users' DM settings and members added
 * at run time, nonces, recent refusals, uploaded files and the clock's offset. The server's shape
 * (guilds, channels, roles, the defined users) comes from the definition on every start; what
 * happened in it comes from here. In-flight interactions and gateway sessions are not kept (a
 * restarted bot identifies again, as it would after Discord restarts a gateway node).
 *
 * Layout: `<dir>/state.json` (written to a temporary file and renamed, so a crash leaves the last
 * whole copy) and `<dir>/files/<attachment id>` (written once). Saves follow changes after
 * `debounceMs`; `flush()` (called by `close()`) writes at once. Once a file is in the folder it is
 * read from there when asked for, not kept in memory: a bot that uploads a picture at every move
 * (a board) would otherwise grow the process by every picture it ever sent (Crystallia: about
 * 4.7 MiB a game).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmulatorClock } from './clock.ts';
import type { ChannelRecord, CommandRecord, EmulatorState, MemberRecord, MessageRecord, Rejection, StoredFile, UserRecord } from './state.ts';

/** A stored file whose bytes are read from `file` each time they are asked for (pictures are small and rarely fetched). */
function onDisk(file: string, contentType: string, filename: string): StoredFile {
  return {
    contentType,
    filename,
    get bytes() {
      return readFileSync(file);
    },
  };
}

const FORMAT = 1;

interface Snapshot {
  format: number;
  savedAt: string;
  clockOffsetMs: number;
  users: UserRecord[];
  members: Array<{ guildId: string; member: MemberRecord }>;
  dmChannels: ChannelRecord[];
  /** Threads the bot started (their channel must still be in the definition). */
  threads?: ChannelRecord[];
  /** Every channel's messages, oldest first. */
  messages: MessageRecord[];
  lastMessageIds: Record<string, string | null>;
  commands: CommandRecord[];
  nonces: Array<[string, { messageId: string; at: number }]>;
  rejections: Rejection[];
  files: Array<{ id: string; contentType: string; filename: string }>;
}

export class Persistence {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly written = new Set<string>();
  private stopped = false;
  private readonly off: () => void;

  private constructor(
    private readonly dir: string,
    private readonly state: EmulatorState,
    private readonly clock: EmulatorClock,
    private readonly debounceMs: number,
    private readonly onError: (err: unknown) => void,
  ) {
    const offState = state.onChange(() => this.schedule());
    const offClock = clock.onAdvance(() => this.schedule());
    this.off = () => {
      offState();
      offClock();
    };
  }

  /**
   * Restores what `dir` holds into a freshly seeded state (and moves the clock to its saved
   * offset), then keeps `dir` up to date.
   */
  static async open(dir: string, state: EmulatorState, clock: EmulatorClock, opts: { debounceMs?: number; onError?: (err: unknown) => void } = {}): Promise<Persistence> {
    mkdirSync(path.join(dir, 'files'), { recursive: true });
    const p = new Persistence(dir, state, clock, opts.debounceMs ?? 100, opts.onError ?? (() => {}));
    await p.restore();
    return p;
  }

  private get file(): string {
    return path.join(this.dir, 'state.json');
  }

  private async restore(): Promise<void> {
    for (const name of readdirSync(path.join(this.dir, 'files'))) this.written.add(name);
    if (!existsSync(this.file)) return;
    const snap = JSON.parse(readFileSync(this.file, 'utf8')) as Snapshot;
    if (snap.format !== FORMAT) throw new Error(`${this.file}: unknown format ${snap.format} (expected ${FORMAT}); move the folder away to start afresh`);
    const { state } = this;
    for (const u of snap.users) {
      const seeded = state.users.get(u.id);
      if (seeded) seeded.dmsOpen = u.dmsOpen;
      else state.users.set(u.id, u);
    }
    for (const { guildId, member } of snap.members) {
      const guild = state.guilds.get(guildId);
      if (guild && state.users.has(member.userId) && !guild.members.has(member.userId)) guild.members.set(member.userId, member);
    }
    for (const c of snap.threads ?? []) {
      if (!c.thread || !state.channels.has(c.thread.parentId)) continue;
      state.channels.set(c.id, c);
      state.channelMessages.set(c.id, []);
    }
    for (const c of snap.dmChannels) {
      if (!c.recipientId || !state.users.has(c.recipientId)) continue;
      state.channels.set(c.id, c);
      state.channelMessages.set(c.id, []);
      state.dmChannelByUser.set(c.recipientId, c.id);
    }
    for (const m of snap.messages) {
      const list = state.channelMessages.get(m.channelId);
      if (!list) continue; // a channel the definition no longer has
      state.messages.set(m.id, m);
      list.push(m.id);
    }
    for (const [channelId, id] of Object.entries(snap.lastMessageIds)) {
      const c = state.channels.get(channelId);
      if (c && (id === null || state.messages.has(id))) c.lastMessageId = id;
    }
    for (const c of snap.commands) if (c.guildId === null || state.guilds.has(c.guildId)) state.commands.set(c.id, c);
    for (const [key, value] of snap.nonces) state.nonces.set(key, value);
    state.rejections.push(...snap.rejections);
    for (const f of snap.files) {
      const file = path.join(this.dir, 'files', f.id);
      if (existsSync(file)) state.files.set(f.id, onDisk(file, f.contentType, f.filename));
    }
    const behind = snap.clockOffsetMs - this.clock.offset;
    if (behind > 0) await this.clock.advance(behind);
  }

  private snapshot(): Snapshot {
    const { state } = this;
    const members: Snapshot['members'] = [];
    for (const g of state.guilds.values()) for (const member of g.members.values()) members.push({ guildId: g.id, member });
    const messages: MessageRecord[] = [];
    for (const ids of state.channelMessages.values()) for (const id of ids) {
      const m = state.messages.get(id);
      if (m) messages.push(m);
    }
    const lastMessageIds: Record<string, string | null> = {};
    for (const c of state.channels.values()) lastMessageIds[c.id] = c.lastMessageId;
    return {
      format: FORMAT,
      savedAt: new Date().toISOString(),
      clockOffsetMs: this.clock.offset,
      users: [...state.users.values()],
      members,
      dmChannels: [...state.channels.values()].filter((c) => c.type === 1),
      threads: [...state.channels.values()].filter((c) => c.thread),
      messages,
      lastMessageIds,
      commands: [...state.commands.values()],
      nonces: [...state.nonces.entries()],
      rejections: [...state.rejections],
      files: [...state.files.entries()].map(([id, f]) => ({ id, contentType: f.contentType, filename: f.filename })),
    };
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.writing.then(() => this.save()).catch(this.onError);
    }, this.debounceMs);
    this.timer.unref();
  }

  private newFiles(): Array<[string, Buffer]> {
    const out: Array<[string, Buffer]> = [];
    for (const [id, f] of this.state.files) if (!this.written.has(id)) out.push([id, f.bytes]);
    return out;
  }

  /** A file now in the folder: its record reads it from there, and its bytes leave memory. */
  private stored(id: string): void {
    this.written.add(id);
    const f = this.state.files.get(id);
    if (f) this.state.files.set(id, onDisk(path.join(this.dir, 'files', id), f.contentType, f.filename));
  }

  private async save(): Promise<void> {
    for (const [id, bytes] of this.newFiles()) {
      await writeFile(path.join(this.dir, 'files', id), bytes);
      this.stored(id);
    }
    const tmp = `${this.file}.tmp`;
    await writeFile(tmp, JSON.stringify(this.snapshot()));
    await rename(tmp, this.file);
  }

  /** Writes everything now (synchronously: safe in an exit handler). */
  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [id, bytes] of this.newFiles()) {
      writeFileSync(path.join(this.dir, 'files', id), bytes);
      this.stored(id);
    }
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.snapshot()));
    renameSync(tmp, this.file);
  }

  /** The last save, then no more. */
  async close(): Promise<void> {
    // No new save may start, and the one under way must finish before the last one is written
    // (else its rename could put an older copy over the last).
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.off();
    await this.writing;
    this.flushSync();
  }
}
