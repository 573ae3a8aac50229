/**
 * The emulator's memory in a data folder, so that a restart is invisible as it is on Discord: the
 * messages of every channel, DM channels, threads, registered commands, users' DM settings and members added
 * at run time, nonces, recent refusals, uploaded files and the clock's offset. The server's shape
 * (guilds, channels, roles, the defined users) comes from the definition on every start; what
 * happened in it comes from here. In-flight interactions and gateway sessions are not kept (a
 * restarted bot identifies again, as it would after Discord restarts a gateway node).
 *
 * Layout: `<dir>/state.json` (written to a temporary file and renamed, so a crash leaves the last
 * whole copy), `<dir>/files/<attachment id>` (written once) and `<dir>/journal-<n>.ndjson`.
 * Saves of state.json follow changes after `debounceMs`; `flushSync()` (called by `close()`)
 * writes at once.
 *
 * What the bot is told was done must survive a hard kill (SIGKILL) of the process at any moment:
 * every message created, edited or deleted, every uploaded file, DM channel, thread, enforced
 * nonce, registered command and permission change is appended to the journal (one JSON line, written with a
 * synchronous write, uploads first) before the REST answer leaves, from the same call stack that
 * made the change. A restart reads state.json, then replays the journals written since it. Each
 * save of state.json starts a new journal and deletes the ones it covers. The write reaches the
 * operating system, not the disk: it survives the process dying, not the machine losing power.
 * Once a file is in the folder it is read from there when asked for, not kept in memory: a bot
 * that uploads a picture at every move (a board) would otherwise grow the process by every picture
 * it ever sent (Crystallia: about 4.7 MiB a game).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmulatorClock } from './clock.ts';
import { compareSnowflakes } from './snowflake.ts';
import { ChannelKind, type ChannelRecord, type CommandRecord, type EmulatorState, type MemberRecord, type MessageRecord, type Rejection, type StateChange, type StoredFile, type UserRecord } from './state.ts';

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

interface SavedOverwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

/** Server settings changed at run time (the definition gives the rest). */
interface Settings {
  /** channel id -> its overwrites, for channels whose overwrites changed. */
  overwrites: Record<string, SavedOverwrite[]>;
  /** role id -> its permissions, for roles whose permissions changed. */
  roles: Record<string, string>;
  deletedChannels: string[];
}

type JournalEntry =
  | { t: 'msg'; m: MessageRecord }
  | { t: 'del'; id: string; channelId: string }
  | { t: 'chan'; c: ChannelRecord }
  | { t: 'nonce'; key: string; value: { messageId: string; at: number } }
  | { t: 'file'; id: string; contentType: string; filename: string }
  | { t: 'overwrites'; channelId: string; overwrites: SavedOverwrite[] }
  | { t: 'role'; roleId: string; permissions: string }
  | { t: 'chdel'; channelId: string }
  | { t: 'commands'; guildId: string | null; commands: CommandRecord[] };

const JOURNAL = /^journal-(\d+)\.ndjson$/;

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
  /** The first journal written after this copy (older ones are covered by it). */
  journal?: number;
  settings?: Settings;
}

const savedOverwrites = (c: ChannelRecord): SavedOverwrite[] => c.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() }));

export class Persistence {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly written = new Set<string>();
  private stopped = false;
  private readonly off: () => void;
  /** The journal being appended to: its number and file descriptor. */
  private gen = 0;
  private fd: number | null = null;

  private constructor(
    private readonly dir: string,
    private readonly state: EmulatorState,
    private readonly clock: EmulatorClock,
    private readonly debounceMs: number,
    private readonly onError: (err: unknown) => void,
  ) {
    const offState = state.onChange((change) => {
      if (this.stopped) return;
      if (change) this.journal(change);
      this.schedule();
    });
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
    p.gen = Math.max(0, ...p.journals().map(([n]) => n)) + 1;
    p.fd = openSync(p.journalFile(p.gen), 'a');
    return p;
  }

  private journalFile(n: number): string {
    return path.join(this.dir, `journal-${n}.ndjson`);
  }

  /** The journals in the folder, oldest first. */
  private journals(): Array<[number, string]> {
    const out: Array<[number, string]> = [];
    for (const name of readdirSync(this.dir)) {
      const m = JOURNAL.exec(name);
      if (m) out.push([Number(m[1]), path.join(this.dir, name)]);
    }
    return out.sort((a, b) => a[0] - b[0]);
  }

  private append(entry: JournalEntry): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  /** Writes one change the bot may have been told of, before the answer leaves (synchronously). */
  private journal(change: StateChange): void {
    try {
      switch (change.type) {
        case 'message.create':
        case 'message.update':
          for (const a of change.message.attachments) {
            const file = this.state.files.get(a.id);
            if (!file || this.written.has(a.id)) continue;
            writeFileSync(path.join(this.dir, 'files', a.id), file.bytes);
            this.stored(a.id);
            this.append({ t: 'file', id: a.id, contentType: file.contentType, filename: file.filename });
          }
          this.append({ t: 'msg', m: change.message });
          return;
        case 'message.delete':
          this.append({ t: 'del', id: change.id, channelId: change.channelId });
          return;
        case 'thread.create':
        case 'dm.open':
          this.append({ t: 'chan', c: change.channel });
          return;
        case 'nonce':
          this.append({ t: 'nonce', key: change.key, value: change.value });
          return;
        case 'channel.update':
          this.append({ t: 'overwrites', channelId: change.channel.id, overwrites: savedOverwrites(change.channel) });
          return;
        case 'role.update':
          this.append({ t: 'role', roleId: change.role.id, permissions: change.role.permissions.toString() });
          return;
        case 'channel.delete':
          this.append({ t: 'chdel', channelId: change.channel.id });
          return;
        case 'commands.update':
          this.append({ t: 'commands', guildId: change.guildId, commands: this.state.commandsFor(change.guildId) });
          return;
        default:
          return;
      }
    } catch (err) {
      this.onError(err);
    }
  }

  private get file(): string {
    return path.join(this.dir, 'state.json');
  }

  private async restore(): Promise<void> {
    for (const name of readdirSync(path.join(this.dir, 'files'))) this.written.add(name);
    const snap = existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Snapshot) : null;
    if (snap) await this.restoreSnapshot(snap);
    for (const [n, file] of this.journals()) {
      if (n < (snap?.journal ?? 0)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        let entry: JournalEntry;
        try {
          entry = JSON.parse(line) as JournalEntry;
        } catch {
          continue; // a line cut short by a crash mid-write: the change it held was never answered
        }
        this.replay(entry);
      }
    }
  }

  private deleteChannel(id: string): void {
    const { state } = this;
    const channel = state.channels.get(id);
    if (!channel) return;
    for (const c of [...state.channels.values()].filter((x) => x.thread?.parentId === id).concat(channel)) {
      for (const mid of state.channelMessages.get(c.id) ?? []) state.messages.delete(mid);
      state.channelMessages.delete(c.id);
      state.channels.delete(c.id);
    }
    if (!channel.thread) state.deletedChannelIds.add(id);
    for (const g of state.guilds.values()) if (g.systemChannelId === id) g.systemChannelId = null;
  }

  private setOverwrites(channelId: string, saved: SavedOverwrite[]): void {
    const c = this.state.channels.get(channelId);
    if (!c || c.type !== ChannelKind.GuildText) return;
    c.overwrites = saved.map((o) => ({ id: o.id, type: o.type, allow: BigInt(o.allow), deny: BigInt(o.deny) }));
    this.state.changedOverwrites.add(channelId);
  }

  private setRole(roleId: string, permissions: string): void {
    for (const g of this.state.guilds.values()) {
      const role = g.roles.get(roleId);
      if (!role) continue;
      role.permissions = BigInt(permissions);
      this.state.changedRoles.add(roleId);
    }
  }

  /** Applies one journal line (each is an upsert or a removal: replaying one twice changes nothing). */
  private replay(e: JournalEntry): void {
    const { state } = this;
    switch (e.t) {
      case 'msg': {
        const list = state.channelMessages.get(e.m.channelId);
        if (!list) return;
        if (!state.messages.has(e.m.id)) {
          list.push(e.m.id);
          list.sort(compareSnowflakes);
        }
        state.messages.set(e.m.id, e.m);
        this.recomputeLast(e.m.channelId);
        return;
      }
      case 'del': {
        state.messages.delete(e.id);
        const list = state.channelMessages.get(e.channelId);
        const i = list?.indexOf(e.id) ?? -1;
        if (list && i >= 0) list.splice(i, 1);
        this.recomputeLast(e.channelId);
        return;
      }
      case 'chan': {
        const c = e.c;
        if (state.channels.has(c.id)) return;
        if (c.thread && !state.channels.has(c.thread.parentId)) return;
        if (c.type === ChannelKind.DM && (!c.recipientId || !state.users.has(c.recipientId))) return;
        state.channels.set(c.id, { ...c, overwrites: [] });
        state.channelMessages.set(c.id, []);
        if (c.type === ChannelKind.DM && c.recipientId) state.dmChannelByUser.set(c.recipientId, c.id);
        return;
      }
      case 'nonce':
        state.nonces.set(e.key, e.value);
        return;
      case 'file': {
        const file = path.join(this.dir, 'files', e.id);
        if (existsSync(file)) state.files.set(e.id, onDisk(file, e.contentType, e.filename));
        return;
      }
      case 'overwrites':
        this.setOverwrites(e.channelId, e.overwrites);
        return;
      case 'role':
        this.setRole(e.roleId, e.permissions);
        return;
      case 'chdel':
        this.deleteChannel(e.channelId);
        return;
      case 'commands': {
        if (e.guildId !== null && !state.guilds.has(e.guildId)) return;
        for (const [id, c] of state.commands) if (c.guildId === e.guildId) state.commands.delete(id);
        for (const c of e.commands) state.commands.set(c.id, c);
        return;
      }
    }
  }

  private recomputeLast(channelId: string): void {
    const c = this.state.channels.get(channelId);
    if (!c) return;
    const ids = this.state.channelMessages.get(channelId) ?? [];
    let last: string | null = null;
    for (let i = ids.length - 1; i >= 0 && last === null; i--) {
      const m = this.state.messages.get(ids[i] as string);
      if (m && m.visibleTo === null) last = m.id;
    }
    c.lastMessageId = last;
  }

  private async restoreSnapshot(snap: Snapshot): Promise<void> {
    if (snap.format !== FORMAT) throw new Error(`${this.file}: unknown format ${snap.format} (expected ${FORMAT}); move the folder away to start afresh`);
    const { state } = this;
    for (const id of snap.settings?.deletedChannels ?? []) this.deleteChannel(id);
    for (const [id, saved] of Object.entries(snap.settings?.overwrites ?? {})) this.setOverwrites(id, saved);
    for (const [id, perms] of Object.entries(snap.settings?.roles ?? {})) this.setRole(id, perms);
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

  /** The state as one copy; starts a new journal (the copy covers every line written before). */
  private snapshot(): Snapshot {
    const { state } = this;
    const journal = this.rotate();
    const overwrites: Settings['overwrites'] = {};
    for (const id of state.changedOverwrites) {
      const c = state.channels.get(id);
      if (c) overwrites[id] = savedOverwrites(c);
    }
    const roles: Settings['roles'] = {};
    for (const g of state.guilds.values()) for (const r of g.roles.values()) if (state.changedRoles.has(r.id)) roles[r.id] = r.permissions.toString();
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
      journal,
      settings: { overwrites, roles, deletedChannels: [...state.deletedChannelIds] },
    };
  }

  private rotate(): number {
    if (this.fd === null) return this.gen;
    closeSync(this.fd);
    this.gen += 1;
    this.fd = openSync(this.journalFile(this.gen), 'a');
    return this.gen;
  }

  /** Once a copy is safely in place, the journals it covers go. */
  private dropJournalsBefore(n: number): void {
    for (const [k, file] of this.journals()) if (k < n) rmSync(file, { force: true });
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
    const snap = this.snapshot();
    await writeFile(tmp, JSON.stringify(snap));
    await rename(tmp, this.file);
    this.dropJournalsBefore(snap.journal ?? 0);
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
    const snap = this.snapshot();
    writeFileSync(tmp, JSON.stringify(snap));
    renameSync(tmp, this.file);
    this.dropJournalsBefore(snap.journal ?? 0);
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
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
