import fs from 'node:fs';
import path from 'node:path';

/**
 * The recorded toncenter responses live in ../shared beside the checkout. A user's clone does
 * not have it, so suites that need it skip with a message instead of failing; CI has it.
 */
export const SHARED_DIR = path.resolve(__dirname, '..', '..', '..', 'shared');
export const FIXTURES_DIR = path.join(SHARED_DIR, 'fixtures', 'toncenter-v2');

export const fixturesAvailable = fs.existsSync(FIXTURES_DIR);

export interface Fixture {
  file: string;
  method: string;
  params: Record<string, unknown>;
  network: string;
  response: unknown;
}

/** Every fixture of a method (files `<method>-NN.json`), sorted by file name. */
export function loadFixtures(method: string): Fixture[] {
  if (!fixturesAvailable) return [];
  return fs
    .readdirSync(FIXTURES_DIR)
    .filter((file) => file.startsWith(`${method}-`) && file.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8')) as Omit<Fixture, 'file'>;
      return { ...data, file };
    });
}

/** The `result` of a fixture whatever shape it was recorded in (envelope or bare result). */
export function fixtureResult(fixture: Fixture): unknown {
  const response = fixture.response as Record<string, unknown>;
  return response && typeof response === 'object' && 'ok' in response && 'result' in response ? response['result'] : response;
}

/** `describe` when the fixtures are present, otherwise a skipped suite that says why. */
export function describeWithFixtures(name: string, body: () => void): void {
  if (fixturesAvailable) {
    describe(name, body);
  } else {
    describe.skip(`${name} (skipped: ${FIXTURES_DIR} is absent; it exists only beside a CI checkout)`, body);
  }
}
