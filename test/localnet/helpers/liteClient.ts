import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Localnet, startLocalnet, StartLocalnetOptions } from '../../../src/localnet';
import { unrefTimersWhileInstalled } from '../adnl/liteClientTimers';

export interface ConnectedLocalnet {
  net: Localnet;
  engine: LiteSingleEngine;
  client: LiteClient;
  close(): Promise<void>;
}

/** Starts a localnet on a random port and connects an unmodified ton-lite-client to it. */
export async function startConnectedLocalnet(opts: StartLocalnetOptions = {}): Promise<ConnectedLocalnet> {
  // ton-lite-client never clears its per-query timeout timers; unref them so Jest can exit.
  const restoreTimers = unrefTimersWhileInstalled();
  const net = await startLocalnet({ port: 0, blockIntervalMs: 0, ...opts });
  const engine = new LiteSingleEngine({ host: `tcp://${net.host}:${net.port}`, publicKey: net.publicKey });
  // A standalone engine without an error listener crashes the process on socket errors.
  engine.on('error', () => undefined);
  await new Promise<void>((resolve) => engine.once('ready', () => resolve()));
  const client = new LiteClient({ engine });
  return {
    net,
    engine,
    client,
    close: async () => {
      engine.close();
      await net.stop();
      restoreTimers();
    },
  };
}
