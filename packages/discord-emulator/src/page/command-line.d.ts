// Types for command-line.js (plain JavaScript served to the browser as is), for the tests that import it.

export interface CommandEntry {
  path: string;
  options: Array<{ name: string; required?: boolean }>;
}

export function parseCommandLine<E extends CommandEntry>(
  text: string,
  entries: readonly E[],
): { entry: E | null; path: string; values: Record<string, string>; stray: string };
export function withArticle(word: string): string;
