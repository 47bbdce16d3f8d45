import fs from 'node:fs';
import path from 'node:path';

/**
 * The README and docs/ point at real things: every relative link reaches a file (and a heading of
 * it when it names one), and every repository path they name (`src/...`, `test/...`) exists. Files move (the structure work renames folders); a page that still names
 * the old place fails here instead of misleading a reader.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/** The page's text without fenced code blocks (commands there are not references). */
function prose(page: string): string {
  return fs.readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
}

test.each(PAGES)('%s: every relative link reaches a file and heading', (page) => {
  const broken: string[] = [];
  for (const match of prose(page).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/.test(target)) continue;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
    if (!fs.existsSync(resolved)) {
      broken.push(`${target}: no such file`);
    } else if (anchor !== undefined && !anchorsOf(resolved).has(anchor)) {
      broken.push(`${target}: no such heading`);
    }
  }
  expect(broken).toEqual([]);
});

/** A quoted path exists, or names the start of files (`test/hostile/fuzz` as jest takes it). */
function pathExists(quoted: string): boolean {
  if (fs.existsSync(path.join(ROOT, quoted))) return true;
  const dir = path.join(ROOT, path.dirname(quoted));
  return fs.existsSync(dir) && fs.readdirSync(dir).some((name) => name.startsWith(path.basename(quoted)));
}

test.each(PAGES)('%s: every repository path it names exists', (page) => {
  const missing: string[] = [];
  for (const match of prose(page).matchAll(/(?:^|[\s(`])((?:src|test|bench|bin|config|docs|\.ci)\/[\w./*<>{}-]*[\w*>}])/gm)) {
    const quoted = match[1]!;
    // Patterns and placeholders (`src/converters/v3*.ts`, `<category>/<method>.ts`) name no one file.
    if (/[*<>{}]/.test(quoted)) continue;
    if (!pathExists(quoted)) missing.push(quoted);
  }
  expect(missing).toEqual([]);
});
