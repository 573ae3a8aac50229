// A V8 CPU profile (.cpuprofile, from `node --cpu-prof`) of the bot process, cut to a time window
// and its samples' self time summed by component: which package (or our own code, or Node, or the
// garbage collector) the innermost frame belongs to, socket writes apart.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The component a frame's self time is counted under. */
function component(fn: string, url: string): string {
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(program)') return 'V8 and native (program)';
  if (/^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeGeneric|writevGeneric)$/.test(fn)) return 'socket writes';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) {
    const pkg = m[1]!;
    if (pkg.startsWith('@prisma/') || url.includes('/src/generated/')) return '@prisma/client';
    if (pkg === 'pg' || pkg.startsWith('pg-')) return 'pg';
    if (pkg === 'discord.js' || pkg.startsWith('@discordjs/')) return pkg === '@discordjs/rest' ? '@discordjs/rest' : pkg === '@discordjs/ws' ? '@discordjs/ws' : 'discord.js';
    return pkg;
  }
  if (url.includes('/src/generated/')) return '@prisma/client';
  if (url.startsWith('node:') || url === '' ) return 'Node internals';
  if (url.includes('/dist/') || url.includes('/src/') || url.includes('/packages/')) return 'Stonehall';
  return 'other';
}

/** The newest profile in `dir` (node writes one per process at exit). */
export function newestProfile(dir: string): string | null {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  return files.length ? path.join(dir, files.at(-1)!) : null;
}

/** Self time (ms) by component within [fromUs, toUs] on the monotonic clock, busy time apart from idle. */
export function profileByComponent(file: string, fromUs: number, toUs: number): { busyMs: number; idleMs: number; byComponent: Array<{ component: string; ms: number }> } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t < fromUs || t > toUs) continue;
    // A sample's time: the gap to the next sample.
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(p.samples[i]!)!;
    const c = component(node.callFrame.functionName, node.callFrame.url);
    totals.set(c, (totals.get(c) ?? 0) + dt);
  }
  const idleMs = totals.get('idle') ?? 0;
  totals.delete('idle');
  const byComponent = [...totals].map(([c, ms]) => ({ component: c, ms })).sort((a, b) => b.ms - a.ms);
  return { busyMs: byComponent.reduce((n, c) => n + c.ms, 0), idleMs, byComponent };
}
