// Types for markdown.js (plain JavaScript served to the browser as is), for the tests that import it.

export interface MessageLink {
  guildId: string;
  channelId: string;
  messageId: string | null;
}

export interface MarkdownContext {
  user?(id: string): { name: string } | null;
  role?(id: string): { name: string; color?: number } | null;
  channel?(id: string): { name: string } | null;
  timestamp?(unix: number, style: string): { text: string; title: string };
  messageLinkLabel?(link: MessageLink): string | null;
}

export function escapeHtml(s: unknown): string;
export function parseMessageLink(url: string): MessageLink | null;
export function renderMarkdown(text: string, ctx?: MarkdownContext, opts?: { inline?: boolean }): string;
