import { Address, contractAddress, MessageRelaxed, SendMode, StateInit, toNano } from '@ton/core';
import { internal, TonClient, WalletContractV4 } from '@ton/ton';
import type { KeyPair } from '@ton/crypto';

/**
 * Transfers from the funded v4r2 wallet 0 of the local chain, made through the API with TonClient
 * (every call is a real request to the server under test).
 */

/**
 * Sends up to four messages in one transfer and returns once the wallet's seqno moved. `walletId`
 * picks another funded v4r2 wallet of the chain (wallet i: the base subwallet id plus i). `timeout`
 * (unix time the message is valid until) is for a chain whose clock was moved ahead of the wall
 * clock (the default, the wall clock + 60 s, is already past there).
 */
export async function transferFromWallet(
  client: TonClient,
  keyPair: KeyPair,
  messages: MessageRelaxed[],
  walletId?: number,
  timeout?: number,
): Promise<void> {
  const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey, walletId }));
  const seqno = await wallet.getSeqno();
  await wallet.sendTransfer({
    seqno,
    secretKey: keyPair.secretKey,
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    timeout,
  });
  // The local chain answers an accepted message before its block (the next timed block, as on a
  // network; at once with --block-interval 0): wait for the seqno to move, within a bound.
  for (let i = 0; i < 200 && (await wallet.getSeqno()) === seqno; i++) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Deploys contracts (four per transfer) with 0.5 TON each; returns their addresses. */
export async function deployFromWallet(client: TonClient, keyPair: KeyPair, inits: StateInit[], value = toNano('0.5')): Promise<Address[]> {
  const addresses = inits.map((init) => contractAddress(0, init));
  for (let i = 0; i < inits.length; i += 4) {
    await transferFromWallet(
      client,
      keyPair,
      inits.slice(i, i + 4).map((init, j) => internal({ to: addresses[i + j], value, init, bounce: false })),
    );
  }
  return addresses;
}
