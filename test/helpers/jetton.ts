import { Address, beginCell, Cell, contractAddress, type StateInit } from '@ton/core';
// tonweb ships the standard jetton wallet (TEP-74, the token-contract code mainnet jettons run).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JettonWallet } = require('tonweb/src/contract/token/ft/JettonWallet') as { JettonWallet: { codeHex: string } };

/**
 * Jettons on the local chain without a minter: the master is a wallet of ours, so its wallet can
 * mint by sending `internal_transfer` itself (a jetton wallet accepts one from its master).
 */
export const JETTON_WALLET_CODE = Cell.fromBoc(Buffer.from(JettonWallet.codeHex, 'hex'))[0]!;

/** The jetton wallet of `owner` for the jetton whose master is `master`. */
export function jettonWalletInit(owner: Address, master: Address): StateInit {
  const data = beginCell().storeCoins(0).storeAddress(owner).storeAddress(master).storeRef(JETTON_WALLET_CODE).endCell();
  return { code: JETTON_WALLET_CODE, data };
}

export function jettonWalletAddress(owner: Address, master: Address): Address {
  return contractAddress(0, jettonWalletInit(owner, master));
}

/** `internal_transfer` from the master: mints `amount` to the wallet it is sent to. */
export function mintBody(amount: bigint, responseTo: Address): Cell {
  return beginCell()
    .storeUint(0x178d4519, 32)
    .storeUint(0, 64)
    .storeCoins(amount)
    .storeAddress(null)
    .storeAddress(responseTo)
    .storeCoins(0)
    .storeBit(false)
    .endCell();
}

/** `transfer` to the owner's jetton wallet, with a forward amount and payload (in a reference). */
export function jettonTransferBody(args: { amount: bigint; to: Address; responseTo: Address; forwardTon: bigint; forwardPayload: Cell }): Cell {
  return beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(0, 64)
    .storeCoins(args.amount)
    .storeAddress(args.to)
    .storeAddress(args.responseTo)
    .storeBit(false)
    .storeCoins(args.forwardTon)
    .storeBit(true)
    .storeRef(args.forwardPayload)
    .endCell();
}
