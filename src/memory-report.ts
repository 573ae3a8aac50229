// Measurement only (STONEHALL_MEMORY_STATS=1, bench/embedded-growth.ts): the process's memory by
// part, so that a process that grows as games are played tells which part grows.
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

const MiB = 2 ** 20;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

export interface MemoryReport {
  /** Resident set (MiB), from /proc when there is one. */
  rss: number;
  /** V8's heap: used and reserved (MiB). */
  heapUsed: number;
  heapTotal: number;
  /** Memory held outside V8's heap by JavaScript objects (Buffers, ArrayBuffers: PGlite's WebAssembly memory is one), and ArrayBuffers alone (MiB). */
  external: number;
  arrayBuffers: number;
  /** The embedded database's WebAssembly memory (MiB; null without one). */
  pgliteWasm: number | null;
  /** The native heap ([heap] mapping's resident part, MiB): Skia, the PNG encoder, Node's own allocations. */
  nativeHeap: number | null;
  /** What the in-process emulator holds (null without one). */
  emulator: Record<string, number> | null;
}

function nativeHeapMiB(): number | null {
  try {
    const smaps = readFileSync('/proc/self/smaps', 'utf8');
    const at = smaps.indexOf('[heap]');
    if (at < 0) return null;
    const rss = /\nRss:\s+(\d+) kB/.exec(smaps.slice(at));
    return rss ? Math.round((Number(rss[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

/** V8's full collection, reachable without --expose-gc (measurement only): what is left after it is what is kept. */
let gc: (() => void) | null = null;
function collect(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

/** The memory by part, after a full collection (so what it shows is kept, not garbage waiting). */
export function memoryReport(parts: { wasmBytes: number | null; emulator: Record<string, number> | null }): MemoryReport {
  collect();
  const m = process.memoryUsage();
  return {
    rss: mib(m.rss),
    heapUsed: mib(m.heapUsed),
    heapTotal: mib(m.heapTotal),
    external: mib(m.external),
    arrayBuffers: mib(m.arrayBuffers),
    pgliteWasm: parts.wasmBytes === null ? null : mib(parts.wasmBytes),
    nativeHeap: nativeHeapMiB(),
    emulator: parts.emulator,
  };
}
