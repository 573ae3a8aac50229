// Types for time.js (plain JavaScript served to the browser as is), for the tests that import it.

export function relativeTime(ms: number, nowMs: number): string;
export function formatTimestamp(unix: number, style: string, nowMs: number): { text: string; title: string };
export function messageTime(iso: string, nowMs: number): string;
export function shortTime(iso: string): string;
export function fullDate(iso: string): string;
export function dayLabel(iso: string): string;
export function sameDay(a: string, b: string): boolean;
export function offsetLabel(ms: number): string;
