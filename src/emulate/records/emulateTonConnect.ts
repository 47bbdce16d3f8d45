import { Address } from '@ton/core';
import { accountAt } from '../../chain';
import { decodeWalletData, walletKindByCodeHash } from '../../converters';
import { ApiError, InvalidRequestError } from '../../errors';
import { type TonConnectMessagePart, type TonConnectWallet, tvmPool } from '../../tvm';
import { bocField, emulateAndRender, emulationBlock, type EmulateFlags, type EmulateRecord, flagsOf, requestObject, stringField, uintField } from '../record';

/**
 * POST /api/emulate/v1/emulateTonConnect: the trace of a TON Connect transaction request
 * (toncenter's TonConnectEmulateRequest): the wallet's external message is built from its state at
 * the block (seqno, wallet id) with a zero signature and emulated with signature checks off.
 */

/** toncenter takes at most 4 messages (a v3/v4 wallet's limit). */
export const MAX_TONCONNECT_MESSAGES = 4;
/** valid_until when the request has none (toncenter: now + 5 minutes). */
const DEFAULT_VALIDITY_SECONDS = 300;

/** toncenter's names of the wallets it composes messages for, by our wallet table's names. */
const WALLETS: Readonly<Record<string, TonConnectWallet>> = {
  'wallet v3 r1': 'v3',
  'wallet v3 r2': 'v3',
  'wallet v4 r1': 'v4',
  'wallet v4 r2': 'v4',
  'wallet v5 r1': 'v5',
};

export interface TonConnectMessageParams {
  readonly address: Address;
  readonly bounce: boolean;
  readonly amount: bigint;
  readonly payload?: Buffer;
  readonly stateInit?: Buffer;
}

export interface EmulateTonConnectParams extends EmulateFlags {
  readonly from: Address;
  readonly messages: readonly TonConnectMessageParams[];
  readonly validUntil: bigint | null;
}

/** A user-friendly address (its bounce flag kept) or a raw one (bounceable, as tonlib parses it). */
function parseAddress(text: string, what: string): { address: Address; bounce: boolean } {
  try {
    if (Address.isFriendly(text)) {
      const friendly = Address.parseFriendly(text);
      return { address: friendly.address, bounce: friendly.isBounceable };
    }
    return { address: Address.parseRaw(text), bounce: true };
  } catch {
    throw new InvalidRequestError(`invalid ${what}: ${text.length > 100 ? `${text.slice(0, 100)}...` : text}`);
  }
}

/** toncenter's to_seconds: a valid_until in ms, µs or ns becomes seconds. */
function toSeconds(value: bigint): bigint {
  if (value >= 1_000_000_000_000_000_000n) return value / 1_000_000_000n;
  if (value >= 1_000_000_000_000_000n) return value / 1_000_000n;
  if (value >= 1_000_000_000_000n) return value / 1_000n;
  return value;
}

function parseMessage(raw: unknown, index: number): TonConnectMessageParams {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidRequestError(`message at index ${index} must be an object`);
  const message = raw as Record<string, unknown>;
  const address = stringField(message, 'address');
  if (address === '') throw new InvalidRequestError(`message at index ${index} cannot be empty`);
  const amount = stringField(message, 'amount');
  if (amount === '') throw new InvalidRequestError(`amount in message at index ${index} cannot be empty`);
  if (!/^\d{1,20}$/.test(amount) || BigInt(amount) >= 1n << 64n) throw new InvalidRequestError(`invalid amount in message at index ${index}: ${amount.slice(0, 40)}`);
  const payload = stringField(message, 'payload');
  const stateInit = stringField(message, 'stateInit');
  const parsed = parseAddress(address, `address in message at index ${index}`);
  return {
    ...parsed,
    amount: BigInt(amount),
    ...(payload !== '' ? { payload: bocField(`message payload at index ${index}`, payload) } : {}),
    ...(stateInit !== '' ? { stateInit: bocField(`message stateInit at index ${index}`, stateInit) } : {}),
  };
}

export const emulateTonConnectRecord: EmulateRecord<EmulateTonConnectParams> = {
  path: '/v1/emulateTonConnect',
  summary: 'Emulate trace by composing external message from internal messages for TON Connect.',
  cachePolicy: 'never',
  parse(raw) {
    const body = requestObject(raw);
    const from = stringField(body, 'from');
    if (from === '') throw new InvalidRequestError('from address is required for emulation');
    const messages = body['messages'] ?? [];
    if (!Array.isArray(messages)) throw new InvalidRequestError('messages must be an array');
    if (messages.length === 0) throw new InvalidRequestError('messages array cannot be empty');
    if (messages.length > MAX_TONCONNECT_MESSAGES) throw new InvalidRequestError(`messages array cannot contain more than ${MAX_TONCONNECT_MESSAGES} messages`);
    return {
      ...flagsOf(body),
      from: parseAddress(from, 'from address').address,
      messages: messages.map(parseMessage),
      validUntil: uintField(body, 'valid_until', 64),
    };
  },
  async run(ctx, p) {
    const session = ctx.session();
    const block = await emulationBlock(session, p.mcBlockSeqno);
    const wallet = await accountAt(session, block, p.from);
    const state = wallet.account?.storage.state;
    const code = state?.type === 'active' ? state.state.code : null;
    const data = state?.type === 'active' ? state.state.data : null;
    // toncenter's texts; 422 here (the account is not what the request needs), 500 there.
    if (!code || !data) throw new ApiError('badInput', 'Account state no code or no data');
    const kind = walletKindByCodeHash(code.hash());
    const family = kind ? WALLETS[kind.name] : undefined;
    const fields = kind ? decodeWalletData(kind.layout, data) : undefined;
    if (!kind || !family || !fields) throw new ApiError('badInput', 'Account is not a known wallet');
    const now = wallet.syncUtime;
    // toncenter's v3 composer always gives five minutes; v4 and v5 take the request's valid_until.
    const validUntil = family === 'v3' || p.validUntil === null ? BigInt(now + DEFAULT_VALIDITY_SECONDS) : toSeconds(p.validUntil);
    const parts: TonConnectMessagePart[] = p.messages.map((m) => ({
      address: m.address.toRawString(),
      bounce: m.bounce,
      amount: m.amount.toString(),
      ...(m.payload ? { payload: m.payload } : {}),
      ...(m.stateInit ? { stateInit: m.stateInit } : {}),
    }));
    const boc = await tvmPool().tonConnectMessage(
      {
        wallet: family,
        from: p.from.toRawString(),
        seqno: fields.seqno,
        walletId: fields.walletId ?? 0,
        validUntil: Number(BigInt.asUintN(32, validUntil)),
        now,
        messages: parts,
      },
      ctx.deadline,
    );
    return emulateAndRender(ctx, session, block, p, { boc, ignoreChksig: true, accounts: [wallet] });
  },
};
