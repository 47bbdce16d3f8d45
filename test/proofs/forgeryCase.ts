import { startTamperedStack, type TamperedStack } from '../helpers/tamperingLiteServer';

/**
 * Issue 13's proof for one lie: with the liar as the only lite server the API answers 502
 * LITE_SERVER_PROOF (never the forged data) and the healthcheck shows the liar out with a bad
 * proof; beside an honest server every answer is the true one, the liar having been caught.
 */
export interface ForgeryCase {
  name: string;
  /** Readies the chain (history, libraries...) before the API is asked anything. */
  prepare?(stack: TamperedStack): Promise<void>;
  /** The API path asked, e.g. `getAddressBalance?address=...`. */
  path(stack: TamperedStack): string;
  /** Makes the liar lie. */
  apply(stack: TamperedStack): void;
}

export async function getJson(stack: TamperedStack, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.api}/${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function liarStatus(stack: TamperedStack): Promise<{ state: string; reason: string | null }> {
  const res = await fetch(`${stack.api}/healthcheck`);
  const body = (await res.json()) as { result: { liteservers: { index: number; state: string; reason: string | null }[] } };
  return body.result.liteservers.find((server) => server.index === 0)!;
}

/** Runs `prepare` and waits until every server's tracked head has the chain's newest block. */
async function prepared(stack: TamperedStack, forgery: ForgeryCase): Promise<void> {
  await forgery.prepare?.(stack);
  const newest = (await stack.liar.upstreamQuery({ kind: 'liteServer.getMasterchainInfo' })).last.seqno;
  for (let i = 0; i < 100; i++) {
    const { body } = await getJson(stack, 'getMasterchainInfo');
    if ((body['result'] as { last: { seqno: number } }).last.seqno >= newest) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The head tracker polls each server; give the other one a round too.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

export function describeForgery(forgery: ForgeryCase): void {
  describe(forgery.name, () => {
    describe('from the only lite server', () => {
      let stack: TamperedStack;
      beforeAll(async () => {
        stack = await startTamperedStack({ honest: false });
        await prepared(stack, forgery);
      }, 60_000);
      afterAll(() => stack?.stop());

      it('is a 502 LITE_SERVER_PROOF, never the forged data, and the server is marked bad', async () => {
        const honest = await getJson(stack, forgery.path(stack));
        expect(honest.status).toBe(200);
        forgery.apply(stack);
        const { status, body } = await getJson(stack, forgery.path(stack));
        expect(stack.liar.tamperErrors).toEqual([]);
        expect(stack.liar.tampered).toBeGreaterThan(0);
        expect({ status, error: body['error'] }).toEqual({ status: 502, error: expect.stringMatching(/^LITE_SERVER_PROOF: /) });
        expect(body['result']).toBeUndefined();
        const liar = await liarStatus(stack);
        expect(liar.state).toBe('down');
        expect(liar.reason).toMatch(/^bad proof: /);
      });
    });

    describe('beside an honest server', () => {
      let stack: TamperedStack;
      beforeAll(async () => {
        stack = await startTamperedStack({ honest: true });
        await prepared(stack, forgery);
      }, 60_000);
      afterAll(() => stack?.stop());

      it('answers the true data from the honest server', async () => {
        const before = await getJson(stack, forgery.path(stack));
        expect(before.status).toBe(200);
        forgery.apply(stack);
        // The pool picks at random: ask until the liar has been asked (and caught) at least once.
        for (let i = 0; i < 40 && stack.liar.tampered === 0; i++) {
          const { status, body } = await getJson(stack, forgery.path(stack));
          expect(status).toBe(200);
          expect(body['result']).toEqual(before.body['result']);
        }
        expect(stack.liar.tamperErrors).toEqual([]);
        expect(stack.liar.tampered).toBeGreaterThan(0);
        expect((await liarStatus(stack)).reason).toMatch(/^bad proof: /);
        const after = await getJson(stack, forgery.path(stack));
        expect(after.body['result']).toEqual(before.body['result']);
      });
    });
  });
}
