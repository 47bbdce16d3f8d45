import { Cell } from '@ton/core';

/**
 * Contract recognition by code hash.
 *
 * Two independent tables, because toncenter has two independent detectors:
 * - getWalletInformation (toncenter's own list, v1 r1 … v5 r1) — `detectWallet`;
 * - getExtendedAddressInformation (tonlib's `account_state` types with a `revision`) —
 *   `detectTonlibContract`.
 * The hashes are representation hashes of the canonical code cells (facts about public contracts).
 */

export type WalletDataLayout = 'seqno' | 'seqno-wallet-id' | 'v5';

export interface WalletKind {
  /** toncenter's `wallet_type`, e.g. "wallet v4 r2". */
  name: string;
  layout: WalletDataLayout;
}

const WALLETS: ReadonlyMap<string, WalletKind> = new Map([
  ['a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c', { name: 'wallet v1 r1', layout: 'seqno' }],
  ['d4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c', { name: 'wallet v1 r2', layout: 'seqno' }],
  ['587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff', { name: 'wallet v1 r3', layout: 'seqno' }],
  ['5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329', { name: 'wallet v2 r1', layout: 'seqno' }],
  ['fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1', { name: 'wallet v2 r2', layout: 'seqno' }],
  ['b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581', { name: 'wallet v3 r1', layout: 'seqno-wallet-id' }],
  ['84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599', { name: 'wallet v3 r2', layout: 'seqno-wallet-id' }],
  ['64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d', { name: 'wallet v4 r1', layout: 'seqno-wallet-id' }],
  ['feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', { name: 'wallet v4 r2', layout: 'seqno-wallet-id' }],
  ['f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93', { name: 'wallet v5 beta', layout: 'v5' }],
  ['20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f', { name: 'wallet v5 r1', layout: 'v5' }],
]);

export interface WalletData {
  seqno: number;
  walletId?: number;
  isSignatureAllowed?: boolean;
}

export interface DetectedWallet extends WalletData {
  walletType: string;
}

export function walletKindByCodeHash(codeHash: Buffer): WalletKind | undefined {
  return WALLETS.get(codeHash.toString('hex'));
}

/**
 * Reads seqno / wallet_id / is_signature_allowed from the root data cell as unsigned big-endian
 * fields (the C++ server reads them as signed 32-bit ints, so a wallet_id ≥ 2^31 would come out
 * negative there; wallet SDKs treat wallet_id as uint32, as Py toncenter does). Returns undefined
 * when the cell is too short, which toncenter reports as "not a wallet".
 */
export function decodeWalletData(layout: WalletDataLayout, data: Cell): WalletData | undefined {
  const needed = layout === 'seqno' ? 32 : layout === 'seqno-wallet-id' ? 64 : 65;
  if (data.bits.length < needed) return undefined;
  const slice = data.beginParse(true);
  switch (layout) {
    case 'seqno':
      return { seqno: slice.loadUint(32) };
    case 'seqno-wallet-id':
      return { seqno: slice.loadUint(32), walletId: slice.loadUint(32) };
    case 'v5': {
      const isSignatureAllowed = slice.loadBit();
      return { isSignatureAllowed, seqno: slice.loadUint(32), walletId: slice.loadUint(32) };
    }
  }
}

/** getWalletInformation's detector: a known wallet code and decodable data, else undefined. */
export function detectWallet(code: Cell | null, data: Cell | null): DetectedWallet | undefined {
  if (!code || !data) return undefined;
  const kind = walletKindByCodeHash(code.hash());
  if (!kind) return undefined;
  const decoded = decodeWalletData(kind.layout, data);
  return decoded ? { walletType: kind.name, ...decoded } : undefined;
}

export type TonlibContractType = 'wallet.v3' | 'wallet.v4' | 'wallet.highload.v1' | 'wallet.highload.v2' | 'dns';

export interface TonlibContract {
  type: TonlibContractType;
  revision: number;
}

const TONLIB_CONTRACTS: ReadonlyMap<string, TonlibContract> = new Map([
  ['b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581', { type: 'wallet.v3', revision: 1 }],
  ['84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599', { type: 'wallet.v3', revision: 2 }],
  ['64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d', { type: 'wallet.v4', revision: 1 }],
  ['feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', { type: 'wallet.v4', revision: 2 }],
  ['d8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484', { type: 'wallet.highload.v1', revision: 1 }],
  ['368c03972e5f4c24412b818652de1de2a2630d1c011609999dff745fb36849ad', { type: 'wallet.highload.v1', revision: 2 }],
  ['8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1', { type: 'wallet.highload.v2', revision: 1 }],
  ['0b3a887aeacd2a7d40bb5550bc9253156a029065aefb6d6b583735d58da9d5be', { type: 'wallet.highload.v2', revision: 2 }],
  ['a0d67d2de8919fe7b7ca77652ccd4fdc56c689de7a69161e45fb0dcc5e47c155', { type: 'dns', revision: 1 }],
]);

/** tonlib's contract recognition for getExtendedAddressInformation's `account_state`. */
export function detectTonlibContract(code: Cell): TonlibContract | undefined {
  return TONLIB_CONTRACTS.get(code.hash().toString('hex'));
}
