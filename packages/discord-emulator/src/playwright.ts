import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/**
 * Helpers to drive the emulator's web page (the playground) in a real browser from tests:
 * `import { sharedBrowser, openPage } from '@stonehall/discord-emulator/playwright'`. Needs
 * playwright-core (an optional peer dependency) and a Chromium: Debian's by default (no browser
 * download).
 *
 * The playground page in a real browser: Debian's Chromium driven by playwright-core (no browser
 * download). CHROMIUM_PATH overrides the binary. Screenshots of the main screens go to
 * test-artifacts/screenshots/ (SCREENSHOTS_DIR overrides), for a person to look at.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Browser tests run wherever Chromium is installed, and always in CI (where a missing one fails). */
export const runBrowserTests = hasChromium || !!process.env.CI;
export const SCREENSHOTS = path.resolve(process.env.SCREENSHOTS_DIR ?? 'test-artifacts/screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launchBrowser(): Promise<Browser> {
  if (!hasChromium) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

let shared: Promise<Browser> | null = null;

/**
 * One Chromium for the whole test process, launched at its first use: test files that run one after
 * another in a process (vitest's `isolate: false`) each open their own contexts in it and close them
 * with `closeContexts` when done, instead of paying for a Chromium start each (about 1.5 s of CPU).
 * Chromium ends with the process (playwright kills what it launched; a Chromium whose driver is gone
 * closes its pipe and exits). If it crashed or was closed, the next call launches another.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = launchBrowser();
    shared = launching;
    launching.then(
      (b) => b.on('disconnected', () => {
        if (shared === launching) shared = null;
      }),
      () => {
        if (shared === launching) shared = null;
      },
    );
  }
  return shared;
}

/** Closes every context (the pages a test file opened) of `browser`, leaving the browser running for the next file. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((c) => c.close()));
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  timezoneId?: string;
  /** Query string of the page address, e.g. "?as=bob&channel=knucklebones" (default: none). */
  query?: string;
  /** Another tab of this browser window (shares its storage and its event stream) instead of a new browser. */
  tabOf?: Page;
}

/**
 * The playground in a new browser (a context of its own, like another person's computer), or in
 * another tab of `tabOf`'s. Page errors and console errors are collected in `errors` so a test can
 * assert the page ran cleanly.
 */
export async function openPage(browser: Browser, url: string, opts: OpenOptions = {}): Promise<Page & { errors: string[] }> {
  const context: BrowserContext =
    opts.tabOf?.context() ??
    (await browser.newContext({
      viewport: opts.viewport ?? DESKTOP,
      locale: 'en-US',
      timezoneId: opts.timezoneId ?? 'Europe/Paris',
      deviceScaleFactor: 1,
    }));
  const page = (await context.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on('pageerror', (err) => page.errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(msg.text());
  });
  page.setDefaultTimeout(10_000);
  await page.goto(url + (opts.query ?? ''));
  await page.locator('body.is-ready').waitFor();
  return page;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  // The tab in front (a background tab paints slowly), no hover effects, animations at their end.
  await page.bringToFront();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}

/** The message list's message whose text matches. */
export function message(page: Page, text: string | RegExp): Locator {
  return page.locator('#message-list .msg', { hasText: text });
}

/** Acts as `who` through the switcher at the top of the page. */
export async function actAs(page: Page, who: string): Promise<void> {
  await page.getByRole('radio', { name: who, exact: true }).click();
  await page.getByRole('radio', { name: who, exact: true, checked: true }).waitFor();
}

/** Opens a channel (or "Stonehall" for the DMs) from the list on the left. */
export async function openChannel(page: Page, name: string): Promise<void> {
  await page.locator('#sidebar').getByRole('link', { name: new RegExp(`^#?\\s*${name}\\b`) }).click();
  await page.locator('#chat-title', { hasText: name }).waitFor();
}

/** Types into the message box as a person would (key by key). */
export async function type(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.click();
  await box.pressSequentially(text);
}

/** A computed CSS property of the element (tests have no DOM types: the page evaluates it). */
export function css(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((el, prop) => el.ownerDocument.defaultView!.getComputedStyle(el).getPropertyValue(prop), property);
}

/**
 * The options of an open select menu (`.select-menu`) that a person could not see and tap: outside
 * the visible message list (under the message box, off the screen) or covered by something else.
 * Each option is first scrolled to within the menu, which scrolls when its room is short.
 */
export async function menuOptionsOutOfSight(page: Page, menu: Locator): Promise<string[]> {
  const pane = (await page.locator('#messages').boundingBox())!;
  const bottom = Math.min(pane.y + pane.height, page.viewportSize()!.height);
  const out: string[] = [];
  const options = menu.getByRole('option');
  for (let k = 0; k < (await options.count()); k++) {
    const opt = options.nth(k);
    await opt.scrollIntoViewIfNeeded();
    const box = (await opt.boundingBox())!;
    const inside = box.y >= pane.y - 0.5 && box.y + box.height <= bottom + 0.5;
    const onTop = await opt.evaluate((el, [x, y]) => {
      const doc = el.ownerDocument as unknown as { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null };
      return doc.elementFromPoint(x!, y!)?.closest('.select-option') === el;
    }, [box.x + box.width / 2, box.y + box.height / 2]);
    if (!inside || !onTop) out.push(`${(await opt.innerText()).split('\n')[0]} (${inside ? 'covered' : 'outside the message list'})`);
  }
  return out;
}

/** How wide the page's content is (more than the viewport means a sideways scroll). */
export function contentWidth(page: Page): Promise<number> {
  return page.evaluate('document.documentElement.scrollWidth') as Promise<number>;
}
