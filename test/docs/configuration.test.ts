import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { envName, loadConfig, OPTIONS, type AppConfig } from '../../src/config';

/**
 * docs/configuration.md documents every option of the one option table (src/config): the same
 * flags, each with its variable and its default. An option added, renamed or re-defaulted in the
 * code and not in the docs (or the other way round) fails here.
 */

const DOC = path.resolve(__dirname, '..', '..', 'docs', 'configuration.md');

interface DocRow {
  flag: string;
  variable: string;
  defaultText: string;
}

function documentedOptions(): DocRow[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const rows: DocRow[] = [];
  for (const match of text.matchAll(/^\| `--([a-z0-9-]+)` \| `([A-Z0-9_]+)` \|([^|]*)\|/gm)) {
    rows.push({ flag: match[1]!, variable: match[2]!, defaultText: match[3]!.trim() });
  }
  return rows;
}

const specs = Object.entries(OPTIONS) as [keyof AppConfig, (typeof OPTIONS)[keyof typeof OPTIONS]][];

test('every option of the table has one row, and every row is an option', () => {
  const documented = documentedOptions().map((row) => row.flag);
  expect([...documented].sort()).toEqual(specs.map(([, spec]) => spec.flag).sort());
  expect(new Set(documented).size).toBe(documented.length);
});

test("each row names the option's environment variable", () => {
  for (const row of documentedOptions()) expect([row.flag, row.variable]).toEqual([row.flag, envName(row.flag)]);
});

test('each default is the one the code applies', () => {
  const rows = new Map(documentedOptions().map((row) => [row.flag, row]));
  for (const [key, spec] of specs) {
    const { defaultText } = rows.get(spec.flag)!;
    if (key === 'tvmWorkers') {
      // The one default that depends on the machine.
      expect([spec.flag, defaultText, spec.defaultValue]).toEqual([spec.flag, '(the cores)', availableParallelism()]);
    } else if (spec.defaultValue === undefined) {
      // No value: empty, or what happens instead in parentheses ("(random)").
      expect([spec.flag, defaultText]).toEqual([spec.flag, expect.stringMatching(/^$|^\(.+\)$/)]);
    } else {
      // The documented text, read as the flag's value ('64mb', `ton-http-bridge:ratelimit:`), is the default.
      const value = defaultText.replace(/^`(.*)`$/, '$1');
      expect([spec.flag, loadConfig([`--${spec.flag}`, value], {}).config[key]]).toEqual([spec.flag, spec.defaultValue]);
    }
  }
});
