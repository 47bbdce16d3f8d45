/**
 * The faucet behind `POST /localnet/fund`: a treasury wallet (v4r2, basechain) created at genesis
 * whose key is derived from the chain's validator seed, so a chain resumed from a state file has
 * the same treasury (one saved before the treasury existed gets it in its next block). Funding is
 * an ordinary signed transfer from the treasury, sent as an external message: the transfer, and
 * the credit of the destination (bounce off, so undeployed addresses work), are real
 * transactions in a sealed block.
 */
import { Address, beginCell, Cell, Dictionary, external, internal, loadShardAccount, SendMode, storeMessage } from '@ton/core';
import { KeyPair } from '@ton/crypto';
// The wallet module alone (see wallets.ts).
import { WalletContractV4 } from '@ton/ton/dist/wallets/WalletContractV4';
import { createHash } from 'crypto';
import { accountLeaf, GenesisAccount, LocalChain } from './LocalChain';
import { refuseControl } from './errors';
import { MASTERCHAIN } from './ids';
import { StoredBlock, StoredTransaction } from './store';
import { ed25519FromSeed } from './validator';

const NANO = 1_000_000_000n;
/** What the treasury holds at genesis: 100 000 000 TON. */
export const TREASURY_BALANCE = 100_000_000n * NANO;
/** Most one fund request may ask for: 1 000 000 TON (what each genesis wallet holds). */
export const MAX_FUND_AMOUNT = 1_000_000n * NANO;
/** Kept back from the treasury balance for the transfer's own fees. */
const FEE_RESERVE = NANO;
/** Subwallet id of the treasury ("TRSY"), apart from the funded wallets' 698983191 + i. */
const TREASURY_WALLET_ID = 0x54525359;
/** Validity of a treasury transfer, counted on the chain clock (wallets compare with NOW). */
const TRANSFER_VALIDITY_SECONDS = 60;

export interface Treasury {
  keyPair: KeyPair;
  contract: WalletContractV4;
  address: Address;
}

export function treasuryOf(validatorSeed: Buffer): Treasury {
  const seed = createHash('sha256').update('ton-http-bridge localnet treasury key\0').update(validatorSeed).digest();
  const { publicKey, secretKey } = ed25519FromSeed(seed);
  const keyPair: KeyPair = { publicKey, secretKey };
  const contract = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey, walletId: TREASURY_WALLET_ID });
  return { keyPair, contract, address: contract.address };
}

export function treasuryGenesisAccount(treasury: Treasury): GenesisAccount {
  return { address: treasury.address, init: treasury.contract.init, balance: TREASURY_BALANCE };
}

/** The treasury's balance and wallet seqno at the chain's head; null while it does not exist. */
export function treasuryState(chain: LocalChain, treasury: Treasury): { balance: bigint; seqno: number } | null {
  const top = chain.accountShardTop(chain.lastMasterchainBlock(), treasury.address);
  const leaf = accountLeaf(top.state, treasury.address);
  const account = leaf ? loadShardAccount(leaf).account : null;
  if (!account || account.storage.state.type !== 'active') return null;
  const data = account.storage.state.state.data;
  if (!data) return null;
  return { balance: account.storage.balance.coins, seqno: data.beginParse().loadUint(32) };
}

/** Gives a chain that lacks one (new, or resumed from an older state file) its treasury, sealed. */
export async function ensureTreasury(chain: LocalChain, treasury: Treasury): Promise<void> {
  if (treasuryState(chain, treasury)) return;
  await chain.deployGenesis([treasuryGenesisAccount(treasury)]);
  await chain.seal();
}

export interface TransactionRef {
  address: Address;
  lt: bigint;
  hash: Buffer;
}

export interface FundResult {
  /** The credit of the funded address (its transaction in the block). */
  transaction: TransactionRef;
  /** The treasury's transaction that sent the transfer. */
  sourceTransaction: TransactionRef;
  messageHash: Buffer;
  /** The masterchain block the transfer landed in (its shard blocks hold both transactions). */
  masterchainSeqno: number;
  amount: bigint;
}

export class Faucet {
  /** One transfer at a time: each needs the treasury seqno the previous one left. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly chain: LocalChain,
    readonly treasury: Treasury,
  ) {}

  /** The treasury's balance now (0 if it does not exist). */
  balance(): bigint {
    return treasuryState(this.chain, this.treasury)?.balance ?? 0n;
  }

  fund(destination: Address, amount: bigint): Promise<FundResult> {
    const run = this.queue.then(
      () => this.transfer(destination, amount),
      () => this.transfer(destination, amount),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async transfer(destination: Address, amount: bigint): Promise<FundResult> {
    if (amount <= 0n) refuseControl('amount must be at least 1 nanoton');
    if (amount > MAX_FUND_AMOUNT) refuseControl(`amount is above the faucet's limit of ${MAX_FUND_AMOUNT} nanotons per request`);
    if (destination.workChain !== 0 && destination.workChain !== MASTERCHAIN) refuseControl('the local chain has workchains 0 and -1 only');
    if (destination.equals(this.treasury.address)) refuseControl('the treasury cannot fund itself');
    const state = treasuryState(this.chain, this.treasury);
    if (!state) throw new Error('the chain has no treasury');
    if (amount > state.balance - FEE_RESERVE) {
      refuseControl(`the treasury holds ${state.balance} nanotons; ${amount} (plus fees) is more than that`);
    }
    const body = this.treasury.contract.createTransfer({
      seqno: state.seqno,
      secretKey: this.treasury.keyPair.secretKey,
      messages: [internal({ to: destination, value: amount, bounce: false })],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      timeout: this.chain.now + TRANSFER_VALIDITY_SECONDS,
    });
    const message = beginCell()
      .store(storeMessage(external({ to: this.treasury.address, body })))
      .endCell();
    const mc = await this.chain.sendExternalMessage(message.toBoc());
    const source = findTransaction(this.chain, mc, this.treasury.address, message.hash());
    const outMessage = source ? outMessageOf(source) : null;
    if (!source || !outMessage) throw new Error('the treasury transfer did not send its message');
    const credit = findTransaction(this.chain, mc, destination, outMessage.hash());
    if (!credit) throw new Error('the funded address did not receive the transfer in the same round');
    return {
      transaction: refOf(credit, destination),
      sourceTransaction: refOf(source, this.treasury.address),
      messageHash: outMessage.hash(),
      masterchainSeqno: mc.id.seqno,
      amount,
    };
  }
}

/** The transaction of `address` in the round of masterchain block `mc` whose inbound message is `messageHash`. */
function findTransaction(chain: LocalChain, mc: StoredBlock, address: Address, messageHash: Buffer): StoredTransaction | undefined {
  const block = address.workChain === MASTERCHAIN ? mc : chain.accountShardTop(mc, address);
  return block.transactions.find((tx) => {
    if (tx.workchain !== address.workChain || !tx.address.equals(address.hash)) return false;
    const inMessage = tx.cell.refs[0]?.beginParse().loadMaybeRef();
    return inMessage !== null && inMessage !== undefined && inMessage.hash().equals(messageHash);
  });
}

/** The exact cell of the transaction's first outbound message (re-serialising could change its hash). */
function outMessageOf(tx: StoredTransaction): Cell | null {
  const messages = tx.cell.refs[0]?.beginParse();
  if (!messages) return null;
  messages.loadMaybeRef();
  return messages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).get(0) ?? null;
}

function refOf(tx: StoredTransaction, address: Address): TransactionRef {
  return { address, lt: tx.lt, hash: tx.hash };
}
