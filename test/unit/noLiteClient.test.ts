import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The server reads the chain through src/chain with its own codecs and never builds
 * ton-lite-client's LiteClient (it used to open one per get-method request). Only type imports
 * of ton-lite-client (its LiteEngine interface) may remain in src.
 */

const SRC = path.join(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|js)$/.test(name) ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({ file: path.relative(SRC, file), text: readFileSync(file, 'utf8') }));

test('src has source files to check', () => {
  expect(files.length).toBeGreaterThan(100);
});

test('no file of src constructs a LiteClient', () => {
  expect(files.filter(({ text }) => /new\s+LiteClient\b/.test(text)).map(({ file }) => file)).toEqual([]);
});

test('src imports nothing of ton-lite-client at run time (type imports only)', () => {
  const valueImports = files.flatMap(({ file, text }) =>
    [...text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'ton-lite-client[^']*';/gms)]
      .filter((match) => match[1] === undefined)
      .map((match) => `${file}: ${match[0]}`),
  );
  expect(valueImports).toEqual([]);
});
