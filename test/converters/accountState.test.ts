import { Account, Address, beginCell, Cell, Dictionary, ShardAccount } from '@ton/core';
import {
  WalletContractV1R1,
  WalletContractV2R2,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';
import {
  accountStateFromShardAccount,
  AccountStateInput,
  isSuspended,
  summarizeAccount,
  toAddressBalance,
  toAddressState,
  toFullAccountState,
  toRawFullAccountState,
  toTonlibAccountState,
  toWalletInformation,
} from '../../src/converters/accountState';
import { BlockIdExtInput } from '../../src/converters/blockId';
import { SUSPENDED_ACCOUNTS, SUSPENSION_END_UTIME } from '../../src/converters/suspendedAccounts';
import { decodeWalletData, detectWallet } from '../../src/converters/wallet';
import { recordedAsCpp } from '../helpers/cppDifferences';
import { describeWithFixtures, loadFixtures } from '../helpers/fixtures';
import { type RecordedId, fixture, fixtureRows, idInput, keyOrder, projectOnto, result, withoutExtra } from './support';

type Recorded = Record<string, unknown>;

function makeAccount(address: Address, balance: bigint, state: Account['storage']['state'], other?: Dictionary<number, bigint>): Account {
  return {
    addr: address,
    storageStats: { used: { cells: 1n, bits: 1n }, storageExtra: null, lastPaid: 0, duePayment: null },
    storage: { lastTransLt: 1n, balance: { coins: balance, other }, state },
  };
}

/**
 * Rebuilds the lite-server view of a recorded raw.fullAccountState. The code/data BoCs and balance
 * come from the recording and are converted back; block_id, last_transaction_id and sync_utime are
 * not derivable from any BoC (they describe where the state was read), so they are fed in as inputs.
 */
function inputFromRecorded(recorded: Recorded, address: Address): AccountStateInput {
  const lastTx = recorded['last_transaction_id'] as { lt: string; hash: string };
  const code = recorded['code'] as string;
  const data = recorded['data'] as string;
  const frozen = recorded['frozen_hash'] as string;
  let account: Account | null = null;
  if (recorded['balance'] !== 0) {
    const balance = BigInt(recorded['balance'] as string);
    const state: Account['storage']['state'] = code
      ? { type: 'active', state: { code: Cell.fromBase64(code), data: data ? Cell.fromBase64(data) : null } }
      : frozen
        ? { type: 'frozen', stateHash: BigInt('0x' + Buffer.from(frozen, 'base64').toString('hex')) }
        : { type: 'uninit' };
    account = makeAccount(address, balance, state);
  }
  return {
    address,
    account,
    lastTransaction: lastTx.lt === '0' ? null : { lt: BigInt(lastTx.lt), hash: Buffer.from(lastTx.hash, 'base64') },
    block: idInput(recorded['block_id'] as RecordedId),
    syncUtime: recorded['sync_utime'] as number,
  };
}

/**
 * The queried address when the recording states it; otherwise an arbitrary one that is not on the
 * suspended list (the all-zero address is on it).
 */
function queriedAddress(stem: string): Address {
  const address = fixture(stem).params['address'];
  return typeof address === 'string' ? Address.parse(address) : Address.parse('0:' + '01'.repeat(32));
}

describeWithFixtures('account states against the recordings', () => {
  test('ten getAddressInformation recordings', () => {
    expect(loadFixtures('getAddressInformation')).toHaveLength(10);
  });

  test.each(fixtureRows('getAddressInformation'))('%s: every recorded field of raw.fullAccountState', (file) => {
    const stem = file.replace(/\.json$/, '');
    const recorded = withoutExtra(result(stem)) as Recorded;
    const converted = toRawFullAccountState(inputFromRecorded(recorded, queriedAddress(stem)));
    expect(projectOnto(converted, recorded)).toEqual(recordedAsCpp(recorded));
  });

  test('never-used accounts: the recorded number 0 is the C++ string "0"; an uninitialised account with coins a string', () => {
    for (const stem of [
      'getAddressInformation-04',
      'getAddressInformation-05',
      'getAddressInformation-06',
      'getAddressInformation-07',
      'getAddressInformation-08',
    ]) {
      const converted = toRawFullAccountState(inputFromRecorded(result(stem), queriedAddress(stem)));
      expect(result(stem)['balance']).toBe(0);
      expect(converted.balance).toBe('0');
      expect(converted.state).toBe('uninitialized');
    }
    const funded = toRawFullAccountState(inputFromRecorded(result('getAddressInformation-10'), queriedAddress('getAddressInformation-10')));
    expect(funded.balance).toBe('173086149835');
    expect(funded.state).toBe('uninitialized');
  });

  test.each(['getAddressInformation-09', 'getAddressInformation-10'])('%s (newest format): key order incl. suspended', (stem) => {
    const recorded = result(stem);
    const converted = toRawFullAccountState(inputFromRecorded(recorded, queriedAddress(stem)));
    expect(keyOrder(converted)).toEqual(keyOrder(recorded));
    expect(converted.suspended).toBe(false);
  });

  test('getAddressBalance-02 / getAddressState-01 equal what the account states give', () => {
    const info = inputFromRecorded(result('getAddressInformation-02'), queriedAddress('getAddressInformation-02'));
    expect(fixture('getAddressBalance-02').params['address']).toBe(fixture('getAddressInformation-02').params['address']);
    expect(toAddressBalance(info.account)).toBe(result<string>('getAddressBalance-02'));
    expect(toAddressState(info.account)).toBe('active');
    expect(result<string>('getAddressState-01')).toBe('active');
  });

  // getExtendedAddressInformation-01/-02 query the same wallets as getAddressInformation-01/-02, whose
  // recorded code/data BoCs feed the conversion; block/last tx/sync time are taken from the recording.
  test.each([
    ['getExtendedAddressInformation-01', 'getAddressInformation-01'],
    ['getExtendedAddressInformation-02', 'getAddressInformation-02'],
  ])('%s: wallet account_state and revision from the code/data of %s', (stem, source) => {
    const recorded = withoutExtra(result(stem)) as Recorded;
    const given = fixture(stem).params['address'] as string;
    expect(given).toBe(fixture(source).params['address']);
    const base = inputFromRecorded(result(source), Address.parse(given));
    const input: AccountStateInput = {
      ...base,
      block: idInput(recorded['block_id'] as RecordedId),
      syncUtime: recorded['sync_utime'] as number,
    };
    const flags = Address.parseFriendly(given);
    const converted = toFullAccountState(input, { addressFlags: { bounceable: flags.isBounceable, testOnly: flags.isTestOnly } });
    expect(projectOnto(converted, recorded)).toEqual(recordedAsCpp(recorded));
  });

  test('getExtendedAddressInformation-03: a non-existent account is uninited; the recorded "-1" is the C++ "0"', () => {
    const recorded = withoutExtra(result('getExtendedAddressInformation-03')) as Recorded;
    const address = Address.parse(fixture('getExtendedAddressInformation-03').params['address'] as string);
    const converted = toFullAccountState({
      address,
      account: null,
      lastTransaction: null,
      block: idInput(recorded['block_id'] as RecordedId),
      syncUtime: recorded['sync_utime'] as number,
    });
    expect(recorded['balance']).toBe('-1');
    expect(projectOnto(converted, recorded)).toEqual(recordedAsCpp(recorded));
    expect(keyOrder(projectOnto(converted, recorded))).toEqual(keyOrder(recorded));
  });

  test.each([
    ['getWalletInformation-01', 'getAddressInformation-01'],
    ['getWalletInformation-02', 'getAddressInformation-02'],
  ])('%s: wallet information decoded from the data BoC of %s', (stem, source) => {
    expect(fixture(stem).params['address']).toBe(fixture(source).params['address']);
    const recorded = result(stem);
    const converted = toWalletInformation(inputFromRecorded(result(source), queriedAddress(source)));
    expect(projectOnto(converted, recorded)).toEqual(recordedAsCpp(recorded));
    // Key order of the recorded (BlockPI, native order) sample, ignoring the keys it predates.
    if (stem === 'getWalletInformation-02') expect(keyOrder(projectOnto(converted, recorded))).toEqual(keyOrder(recorded));
  });

  // getWalletInformation-03's account has no recorded code/data; a v4r2 state with its recorded seqno
  // and wallet_id (code taken from getAddressInformation-02, a v4r2 wallet) must print the same.
  test('getWalletInformation-03: v4r2 with the recorded seqno and wallet_id', () => {
    const recorded = result('getWalletInformation-03');
    const code = Cell.fromBase64(result('getAddressInformation-02')['code'] as string);
    const data = beginCell()
      .storeUint(recorded['seqno'] as number, 32)
      .storeUint(recorded['wallet_id'] as number, 32)
      .storeBuffer(Buffer.alloc(32))
      .storeBit(0)
      .endCell();
    const address = Address.parse(fixture('getWalletInformation-03').params['address'] as string);
    const lastTx = recorded['last_transaction_id'] as { lt: string; hash: string };
    const converted = toWalletInformation({
      address,
      account: makeAccount(address, BigInt(recorded['balance'] as string), { type: 'active', state: { code, data } }),
      lastTransaction: { lt: BigInt(lastTx.lt), hash: Buffer.from(lastTx.hash, 'base64') },
      block: { workchain: -1, shard: -(2n ** 63n), seqno: 1, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
      syncUtime: 0,
    });
    expect(projectOnto(converted, recorded)).toEqual(recorded);
  });
});

// ---------------------------------------------------------------------------------------------
// Accounts built in code.

const ADDRESS = Address.parse('0:' + '5a'.repeat(32));
const BLOCK: BlockIdExtInput = {
  workchain: -1,
  shard: 0x8000000000000000n,
  seqno: 100,
  rootHash: Buffer.alloc(32, 1),
  fileHash: Buffer.alloc(32, 2),
};
const PUBLIC_KEY = Buffer.alloc(32, 3);

function input(account: Account | null, syncUtime = 1700000000, address = ADDRESS): AccountStateInput {
  return { address, account, lastTransaction: account ? { lt: 5n, hash: Buffer.alloc(32, 4) } : null, block: BLOCK, syncUtime };
}

describe('account states built in code', () => {
  test('active account: code/data BoCs, state active, extra currencies', () => {
    const code = beginCell().storeUint(1, 8).endCell();
    const data = beginCell().storeUint(2, 8).endCell();
    const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    other.set(239, 10n);
    const json = toRawFullAccountState(input(makeAccount(ADDRESS, 999n, { type: 'active', state: { code, data } }, other)));
    expect(json).toMatchObject({
      '@type': 'raw.fullAccountState',
      balance: '999',
      extra_currencies: [{ '@type': 'extraCurrency', id: 239, amount: '10' }],
      last_transaction_id: { '@type': 'internal.transactionId', lt: '5', hash: Buffer.alloc(32, 4).toString('base64') },
      block_id: { '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno: 100 },
      frozen_hash: '',
      state: 'active',
      suspended: false,
    });
    expect(Cell.fromBase64(json.code).hash()).toEqual(code.hash());
    expect(Object.keys(json)).toEqual([
      '@type',
      'balance',
      'extra_currencies',
      'last_transaction_id',
      'block_id',
      'code',
      'data',
      'frozen_hash',
      'sync_utime',
      'state',
      'suspended',
    ]);
  });

  test('frozen account: frozen_hash set, code/data empty, state frozen', () => {
    const json = toRawFullAccountState(input(makeAccount(ADDRESS, 1n, { type: 'frozen', stateHash: 0xabn })));
    expect(json.state).toBe('frozen');
    expect(json.code).toBe('');
    expect(Buffer.from(json.frozen_hash, 'base64')).toEqual(Buffer.concat([Buffer.alloc(31), Buffer.from([0xab])]));
    expect(toAddressState(makeAccount(ADDRESS, 1n, { type: 'frozen', stateHash: 0xabn }))).toBe('frozen');
  });

  test('non-existent account: balance "0" (C++), empty everything, zero transaction id; balance endpoint says "0"', () => {
    const json = toRawFullAccountState(input(null));
    expect(json.balance).toBe('0');
    expect(json.last_transaction_id).toEqual({ '@type': 'internal.transactionId', lt: '0', hash: Buffer.alloc(32).toString('base64') });
    expect([json.code, json.data, json.frozen_hash, json.state]).toEqual(['', '', '', 'uninitialized']);
    expect(toAddressBalance(null)).toBe('0');
    expect(summarizeAccount(null).balance).toBe(-1n);
  });

  test('ShardAccount input: last transaction taken from it, lt 0 meaning none', () => {
    const shardAccount: ShardAccount = { account: null, lastTransactionHash: 0n, lastTransactionLt: 0n };
    expect(accountStateFromShardAccount(ADDRESS, shardAccount, BLOCK, 1).lastTransaction).toBeNull();
    const used = accountStateFromShardAccount(ADDRESS, { ...shardAccount, lastTransactionLt: 9n, lastTransactionHash: 1n }, BLOCK, 1);
    expect(toRawFullAccountState(used).last_transaction_id.lt).toBe('9');
  });

  test('suspended: listed account before the cut-off only', () => {
    expect(SUSPENDED_ACCOUNTS.size).toBe(171);
    const listed = Address.parse([...SUSPENDED_ACCOUNTS][0]);
    expect(isSuspended(listed, SUSPENSION_END_UTIME - 1)).toBe(true);
    expect(isSuspended(listed, SUSPENSION_END_UTIME)).toBe(false);
    expect(isSuspended(ADDRESS, 0)).toBe(false);
    expect(toRawFullAccountState(input(null, 1700000000, listed)).suspended).toBe(true);
  });
});

describe('wallet detection', () => {
  const wallets = [
    ['wallet v1 r1', WalletContractV1R1.create({ workchain: 0, publicKey: PUBLIC_KEY })],
    ['wallet v2 r2', WalletContractV2R2.create({ workchain: 0, publicKey: PUBLIC_KEY })],
    ['wallet v3 r2', WalletContractV3R2.create({ workchain: 0, publicKey: PUBLIC_KEY })],
    ['wallet v4 r2', WalletContractV4.create({ workchain: 0, publicKey: PUBLIC_KEY })],
    ['wallet v5 beta', WalletContractV5Beta.create({ publicKey: PUBLIC_KEY })],
    ['wallet v5 r1', WalletContractV5R1.create({ publicKey: PUBLIC_KEY })],
  ] as const;

  test.each(wallets)('%s is recognised by its code hash', (name, wallet) => {
    const detected = detectWallet(wallet.init.code, wallet.init.data);
    expect(detected?.walletType).toBe(name);
    expect(detected?.seqno).toBe(0);
  });

  test('v3/v4 wallet_id and v5 fields come from the data bits, unsigned', () => {
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: PUBLIC_KEY, walletId: 0xfffffff0 });
    const json = toWalletInformation(input(makeAccount(ADDRESS, 10n, { type: 'active', state: v4.init })));
    expect(json).toEqual({
      '@type': 'ext.accounts.walletInformation',
      wallet: true,
      balance: '10',
      extra_currencies: [],
      account_state: 'active',
      wallet_type: 'wallet v4 r2',
      seqno: 0,
      last_transaction_id: { '@type': 'internal.transactionId', lt: '5', hash: Buffer.alloc(32, 4).toString('base64') },
      wallet_id: 0xfffffff0,
    });
    const v5data = beginCell().storeBit(1).storeUint(17, 32).storeUint(2147483409, 32).storeBuffer(PUBLIC_KEY).storeBit(0).endCell();
    expect(decodeWalletData('v5', v5data)).toEqual({ isSignatureAllowed: true, seqno: 17, walletId: 2147483409 });
    const v5 = WalletContractV5R1.create({ publicKey: PUBLIC_KEY });
    const v5json = toWalletInformation(input(makeAccount(ADDRESS, 1n, { type: 'active', state: { code: v5.init.code, data: v5data } })));
    expect(v5json).toMatchObject({ wallet_type: 'wallet v5 r1', seqno: 17, wallet_id: 2147483409, is_signature_allowed: true });
    expect(Object.keys(v5json).at(-1)).toBe('is_signature_allowed');
  });

  test('unknown code, short data and uninitialised accounts are not wallets', () => {
    const unknown = toWalletInformation(input(makeAccount(ADDRESS, 1n, { type: 'active', state: { code: Cell.EMPTY, data: Cell.EMPTY } })));
    expect(unknown).toEqual({
      '@type': 'ext.accounts.walletInformation',
      wallet: false,
      balance: '1',
      extra_currencies: [],
      account_state: 'active',
      last_transaction_id: unknown.last_transaction_id,
    });
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: PUBLIC_KEY });
    expect(detectWallet(v4.init.code, beginCell().storeUint(1, 40).endCell())).toBeUndefined();
    const missing = toWalletInformation(input(null));
    expect(missing).toMatchObject({ wallet: false, balance: '0', account_state: 'uninitialized' });
  });
});

describe('tonlib account_state (getExtendedAddressInformation)', () => {
  test('wallet v3/v4 give typed states with integer wallet_id (C++) and the revision', () => {
    const v3 = WalletContractV3R2.create({ workchain: 0, publicKey: PUBLIC_KEY });
    const summary = summarizeAccount(makeAccount(ADDRESS, 1n, { type: 'active', state: v3.init }));
    expect(toTonlibAccountState(summary)).toEqual({
      state: { '@type': 'wallet.v3.accountState', wallet_id: v3.walletId, seqno: 0 },
      revision: 2,
    });
  });

  test('unrecognised code is raw.accountState with revision 0; no code is uninited', () => {
    const code = beginCell().storeUint(7, 8).endCell();
    const summary = summarizeAccount(makeAccount(ADDRESS, 1n, { type: 'active', state: { code } }));
    const { state, revision } = toTonlibAccountState(summary);
    expect(state).toEqual({ '@type': 'raw.accountState', code: expect.any(String), data: '', frozen_hash: '' });
    expect(revision).toBe(0);
    expect(toTonlibAccountState(summarizeAccount(null))).toEqual({
      state: { '@type': 'uninited.accountState', frozen_hash: '' },
      revision: 0,
    });
  });

  test('v5 wallets are raw for tonlib; address echoes the given flags', () => {
    const v5 = WalletContractV5R1.create({ publicKey: PUBLIC_KEY });
    const json = toFullAccountState(input(makeAccount(ADDRESS, 1n, { type: 'active', state: v5.init })), {
      addressFlags: { bounceable: false, testOnly: true },
    });
    expect(json.account_state['@type']).toBe('raw.accountState');
    expect(json.address.account_address).toBe(ADDRESS.toString({ bounceable: false, testOnly: true, urlSafe: true }));
    expect(Object.keys(json)).toEqual([
      '@type',
      'address',
      'balance',
      'extra_currencies',
      'last_transaction_id',
      'block_id',
      'sync_utime',
      'account_state',
      'revision',
    ]);
    expect(toFullAccountState(input(null)).balance).toBe('0');
  });
});
