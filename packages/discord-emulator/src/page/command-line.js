// A slash command typed as one line ("/krellstone alias set stone:3 alias:Big Red"), read as
// Discord's client reads it: the longest registered command path that starts the line, then each
// option from its `name:` to the next `name:` of that command's options, so a value may hold spaces
// ("Big Red") and even colons ("https://…", "12:30"). A value in double quotes is taken as it is,
// `name:` included. Text before the first `name:` fills the first required option not named (in
// Discord, choosing a command puts the cursor there). Pure: the composer and the unit tests use it.

/**
 * entries: [{ path, options: [{ name, required }] }] (commandEntries' output).
 * Returns { entry, values, stray } where `entry` is null when no command matches (then `path` is
 * what was typed as the command), `values` maps option names to their text, and `stray` is text
 * that belongs to no option (empty when everything found a place).
 */
export function parseCommandLine(text, entries) {
  const line = text.replace(/^\s*\//, '').replace(/\s+$/, '');
  const lower = line.toLowerCase();
  const entry = entries
    .filter((e) => lower === e.path || (lower.startsWith(e.path) && /\s/.test(lower[e.path.length] ?? '')))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!entry) {
    // What was typed as the command: the words before the first `name:`.
    const words = [];
    for (const w of line.split(/\s+/).filter(Boolean)) {
      if (/^[^\s"]+:/.test(w)) break;
      words.push(w);
    }
    return { entry: null, path: words.join(' ').toLowerCase(), values: {}, stray: '' };
  }
  const rest = line.slice(entry.path.length);
  const names = entry.options.map((o) => o.name).sort((a, b) => b.length - a.length);
  // Each `name:` of an option, at the start of the rest or after a space, outside quotes.
  const marks = [];
  let quoted = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '"') quoted = !quoted;
    if (quoted || !(i === 0 || /\s/.test(rest[i - 1]))) continue;
    const name = names.find((n) => rest.slice(i, i + n.length + 1).toLowerCase() === `${n.toLowerCase()}:`);
    if (name) {
      marks.push({ name, at: i, from: i + name.length + 1 });
      i += name.length;
    }
  }
  const unquote = (v) => {
    const t = v.trim();
    return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
  };
  const values = {};
  marks.forEach((m, k) => {
    values[m.name] = unquote(rest.slice(m.from, marks[k + 1]?.at ?? rest.length));
  });
  let stray = unquote(rest.slice(0, marks[0]?.at ?? rest.length));
  if (stray) {
    const first = entry.options.find((o) => o.required && values[o.name] === undefined);
    if (first) {
      values[first.name] = stray;
      stray = '';
    }
  }
  return { entry, path: entry.path, values, stray };
}

/** "a" or "an" before a word, by its sound where English spells it plainly ("an integer", "a user"). */
export function withArticle(word) {
  const w = String(word);
  return `${/^(?:[aeio]|u(?!s|ni))/i.test(w) ? 'an' : 'a'} ${w}`;
}
