import { Address, beginCell, type Cell } from '@ton/core';
import { parseTokenContent, rawAddressUpper, readJettonWalletData, readNftItemData, stackAddress, stackCell, stackInt } from '../converters';
import { contractAt, contractOf, type AccountRead, type ChainConfig, type LoadedContract } from '../chain';
import { okStack, runQuiet } from './getMethodRuns';
import { multisigConfirmsOrder, readMultisig, readMultisigOrder, readVesting } from './multisigDetection';
import type {
  CodeInterfacesRow,
  DnsEntryRow,
  JettonMasterRow,
  JettonWalletRow,
  LatestAccountStateRow,
  NftCollectionRow,
  NftItemRow,
  TokenInterface,
  TokenStateRows,
} from '../indexdb';
import type { LitePool } from '../liteclient';
import type { BlockRef } from '../proofs';
import { dnsResolveAll, fullDomain, readDnsRecords, tonDomain, type DomainMethod } from './dns';
import { ConfigMemory } from './blockConfig';
import { detectionConfig } from './detectionConfig';
import { tvmPool } from '../tvm';
import { TvmSlots } from './tvmSlots';

/**
 * Token detection at index time, as toncenter's index worker does it: for every account a block
 * touched, the standard get-methods run on its state after the masterchain block (in the TVM
 * worker pool, through the chain layer's proven reads, never on the event loop). What a code hash
 * answers is remembered (code_interfaces): a code that is none of the four is never run again, a
 * code that is a jetton wallet has get_wallet_data run on each new state of its accounts. A jetton
 * wallet counts only when its master's `get_wallet_address(owner)` gives it back, an NFT item of a
 * collection only when the collection's `get_nft_address_by_index(index)` does (toncenter's
 * checks); a confirmation is remembered per address and its claimed master/owner or collection/index.
 */

/** Accounts whose get-methods run at once for one block. */
const DETECTIONS_AT_ONCE = 8;
/** Detection's get-methods under way at once per TVM thread (the rest wait, oldest block first: ./tvmSlots.ts). */
const RUNS_PER_TVM_THREAD = 2;
/** Added to a backfill block's seqno for its get-methods' order: after every live block (seqnos are 32-bit). */
const BACKFILL_ORDER = 2 ** 32;
/** Confirmations remembered (the oldest are forgotten first). */
const MAX_CONFIRMATIONS = 200_000;
/** Deadline of one block's detection, ms. */
const DETECTION_MS = 120_000;
const ALL_INTERFACES: readonly TokenInterface[] = ['jetton_master', 'jetton_wallet', 'nft_collection', 'nft_item', 'multisig', 'multisig_order', 'vesting'];

/** The pipeline's lane a block is detected for (./tvmSlots.ts orders the live lane's get-methods first). */
export type DetectionLane = 'live' | 'backfill';

/** A code's classification this caller holds: settled with the interfaces its account answered, or the error that failed it. */
interface Classifying {
  readonly settle: { readonly resolve: (found: ReadonlySet<TokenInterface>) => void; readonly reject: (err: unknown) => void };
}

/** What a block's transactions need to know about the contracts they ran on (events). */
export interface DetectedJettonWallet {
  readonly jetton: string;
}
export interface DetectedNftItem {
  readonly index: string;
  readonly collection: string | null;
}

/** The detection of one masterchain block: rows to write and the confirmed contracts by raw address. */
export interface BlockTokens {
  readonly states: TokenStateRows;
  readonly jettonWallets: ReadonlyMap<string, DetectedJettonWallet>;
  readonly nftItems: ReadonlyMap<string, DetectedNftItem>;
}

export const NO_TOKENS: BlockTokens = {
  states: { codeInterfaces: [], jettonMasters: [], jettonWallets: [], nftCollections: [], nftItems: [], dnsEntries: [], multisigs: [], multisigOrders: [], vestings: [] },
  jettonWallets: new Map(),
  nftItems: new Map(),
};

/** One account the block touched: its proven state read and its latest-state row. */
export interface TouchedAccount {
  /** The proven lite read of its state, when the pipeline made one (else the state came from the block). */
  readonly read?: AccountRead;
  readonly row: LatestAccountStateRow;
}

/** TEP-64 content as toncenter's parse_token_data keeps it: the attributes, or `{"uri": …}`. */
function contentJson(cell: Cell | undefined): Record<string, string> {
  if (!cell) return {};
  try {
    const parsed = parseTokenContent(cell);
    return parsed.type === 'onchain' ? parsed.data : { uri: parsed.data };
  } catch {
    return {};
  }
}

function raw(address: Address | null | undefined): string | null {
  return address ? rawAddressUpper(address) : null;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i]!);
    }),
  );
}

export class TokenDetector {
  /** code hash (hex) → the interfaces its get-methods answered. */
  private readonly codes = new Map<string, ReadonlySet<TokenInterface>>();
  /** `address|claimed parent|claimed key` → whether the parent gave the address back. */
  private readonly confirmations = new Map<string, boolean>();
  /**
   * code hash (hex) → the classification under way of an account of that code: the other accounts
   * of the code (in this block or another being prepared) wait for its answer instead of running
   * every interface's get-methods themselves (the jetton bench's first blocks, prepared at once,
   * classified 58 accounts of two new codes: ~400 get-methods where 2 accounts decide).
   */
  private readonly classifying = new Map<string, Promise<ReadonlySet<TokenInterface>>>();
  /** The configs the get-methods run with, by dictionary hash (a block that kept its config reads none). */
  readonly configs = new ConfigMemory();
  /** Get-methods of every block being detected, in TVM slots handed out oldest block first (made with the first run: the pool's size). */
  private slots: TvmSlots | undefined;

  /** `dnsRoots`: the DNS collections (raw address → how their items name their domain), see ./dns.ts. */
  constructor(private readonly dnsRoots: ReadonlyMap<string, DomainMethod | 'either'> = new Map()) {}

  /** The code hashes the index classified before (code_interfaces), at the pipeline's start. */
  load(rows: readonly CodeInterfacesRow[]): void {
    for (const row of rows) this.codes.set(row.code_hash.toString('hex'), new Set(row.interfaces));
  }

  /**
   * The interfaces of code `codeHex`: known, or answered by the classification under way; when
   * neither, undefined, and the caller now holds the code's classification (registered before this
   * returns, so an account of the same code asking next waits for it) and must `settle` it.
   */
  private async interfacesOf(codeHex: string): Promise<ReadonlySet<TokenInterface> | Classifying> {
    for (;;) {
      const known = this.codes.get(codeHex);
      if (known) return known;
      const pending = this.classifying.get(codeHex);
      if (!pending) {
        let settle: Classifying['settle'] | undefined;
        const classified = new Promise<ReadonlySet<TokenInterface>>((resolve, reject) => (settle = { resolve, reject }));
        classified.catch(() => {});
        this.classifying.set(codeHex, classified);
        return { settle: settle! };
      }
      // A classification that failed (a lite or TVM error that fails its block) leaves the code to the next one.
      await pending.catch(() => undefined);
    }
  }

  /** Forget confirmations (a rollback: a parent's state may be another now). */
  reset(): void {
    this.confirmations.clear();
  }

  /** The token contracts among `accounts` at masterchain block `block` (verified; `stateUpdate` its state update). */
  async detect(pool: LitePool, block: BlockRef, stateUpdate: Cell, accounts: readonly TouchedAccount[], lane: DetectionLane = 'live'): Promise<BlockTokens> {
    const candidates = accounts.filter((a) => {
      const code = a.row.code_hash;
      if (!code || a.row.account_status !== 'active') return false;
      const known = this.codes.get(code.toString('hex'));
      return !known || known.size > 0;
    });
    if (candidates.length === 0) return NO_TOKENS;
    const deadline = Date.now() + DETECTION_MS;
    const session = pool.openSession({}, deadline);
    const states: TokenStateRows = {
      codeInterfaces: [],
      jettonMasters: [],
      jettonWallets: [],
      nftCollections: [],
      nftItems: [],
      dnsEntries: [],
      multisigs: [],
      multisigOrders: [],
      vestings: [],
    };
    const jettonWallets = new Map<string, DetectedJettonWallet>();
    const nftItems = new Map<string, DetectedNftItem>();
    // Contracts by raw address for this block: a candidate's own state (from the block's update or
    // the pipeline's proven read; read here, proven, when it has neither), and the parents that
    // confirm wallets and items (a block's ten new jetton wallets of one master load it once).
    const touched = new Map(accounts.map((a) => [a.row.account, a]));
    const contracts = new Map<string, Promise<LoadedContract>>();
    // The block's config: the one of an earlier block when the update names the same dictionary;
    // the get-methods run with it less the parameters no get-method reads (./detectionConfig.ts).
    let config: Promise<ChainConfig> | undefined;
    const configOf = () => (config ??= this.configs.at(session, block, stateUpdate).then(detectionConfig));
    const slots = (this.slots ??= new TvmSlots(tvmPool().workers * RUNS_PER_TVM_THREAD));
    // The live lane's blocks first, each lane's oldest first: the backfill fills history below the
    // index's first block, and its older seqnos must not hold back the head's blocks.
    const order = lane === 'backfill' ? BACKFILL_ORDER + block.seqno : block.seqno;
    // Each get-method takes a slot for the run alone (not while the contract's state loads).
    const inSlot = (contract: LoadedContract): LoadedContract => ({
      ...contract,
      run: (method, stack) => slots.run(order, () => contract.run(method, stack)),
    });
    const contractFor = (account: string, address?: Address): Promise<LoadedContract> => {
      let loading = contracts.get(account);
      if (!loading) {
        const known = touched.get(account);
        loading = configOf().then(async (blockConfig) =>
          inSlot(
            known?.read
              ? await contractOf(
                  session,
                  known.read,
                  deadline,
                  known.row.code_boc ? { code: known.row.code_boc, data: known.row.data_boc } : undefined,
                  blockConfig,
                )
              : await contractAt(session, block, address ?? Address.parse(account), deadline, blockConfig),
          ),
        );
        contracts.set(account, loading);
      }
      return loading;
    };
    await inBatches(candidates, DETECTIONS_AT_ONCE, async ({ row }) => {
      const codeHex = row.code_hash!.toString('hex');
      const known = await this.interfacesOf(codeHex);
      if ('settle' in known) {
        // This account's answers decide for its code; the others of the code wait for them (interfacesOf).
        try {
          const found = await this.detectOne(row, new Set(ALL_INTERFACES), contractFor, states, jettonWallets, nftItems);
          this.codes.set(codeHex, found);
          states.codeInterfaces.push({ code_hash: row.code_hash!, interfaces: [...found] });
          known.settle.resolve(found);
        } catch (err) {
          known.settle.reject(err);
          throw err;
        } finally {
          this.classifying.delete(codeHex);
        }
      } else if (known.size > 0) await this.detectOne(row, known, contractFor, states, jettonWallets, nftItems);
    });
    return { states, jettonWallets, nftItems };
  }

  /** Runs the get-methods of the interfaces `tried` on one account; the ones it answered. */
  private async detectOne(
    row: LatestAccountStateRow,
    tried: ReadonlySet<TokenInterface>,
    contractFor: (account: string, address?: Address) => Promise<LoadedContract>,
    states: TokenStateRows,
    jettonWallets: Map<string, DetectedJettonWallet>,
    nftItems: Map<string, DetectedNftItem>,
  ): Promise<Set<TokenInterface>> {
    const found = new Set<TokenInterface>();
    const contract = await contractFor(row.account);
    const base = { address: row.account, last_transaction_lt: row.last_trans_lt ?? 0n, code_hash: row.code_hash!, data_hash: row.data_hash ?? Buffer.alloc(32) };

    if (tried.has('jetton_master')) {
      const stack = okStack(await runQuiet(contract, 'get_jetton_data', []), 5);
      const supply = stackInt(stack?.[0]);
      const mintable = stackInt(stack?.[1]);
      const admin = stackAddress(stack?.[2]);
      const content = stackCell(stack?.[3]);
      const walletCode = stackCell(stack?.[4]);
      if (supply !== undefined && mintable !== undefined && admin !== undefined && content && walletCode) {
        found.add('jetton_master');
        const master: JettonMasterRow = {
          ...base,
          total_supply: supply.toString(),
          mintable: mintable !== 0n,
          admin_address: raw(admin),
          jetton_content: contentJson(content),
          jetton_wallet_code_hash: walletCode.hash(),
        };
        states.jettonMasters.push(master);
      }
    }
    if (tried.has('jetton_wallet')) {
      const stack = okStack(await runQuiet(contract, 'get_wallet_data', []), 4);
      const fields = stack && readJettonWalletData(stack);
      if (fields) {
        found.add('jetton_wallet');
        const jetton = rawAddressUpper(fields.jetton);
        const owner = rawAddressUpper(fields.owner);
        const confirmed = await this.confirm(`${row.account}|${jetton}|${owner}`, async () => {
          const master = await contractFor(jetton, fields.jetton);
          const answer = okStack(await runQuiet(master, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(fields.owner).endCell() }]), 1);
          const given = stackAddress(answer?.[0]);
          return given instanceof Address && rawAddressUpper(given) === row.account;
        });
        if (confirmed) {
          const wallet: JettonWalletRow = {
            ...base,
            balance: fields.balance.toString(),
            owner,
            jetton,
            // Mintless airdrops are not indexed (no `is_claimed` run on every state of every wallet).
            mintless_is_claimed: null,
          };
          states.jettonWallets.push(wallet);
          jettonWallets.set(row.account, { jetton });
        }
      }
    }
    if (tried.has('nft_collection')) {
      const stack = okStack(await runQuiet(contract, 'get_collection_data', []), 3);
      const next = stackInt(stack?.[0]);
      const content = stackCell(stack?.[1]);
      const owner = stackAddress(stack?.[2]);
      if (next !== undefined && content && owner !== undefined) {
        found.add('nft_collection');
        const collection: NftCollectionRow = { ...base, next_item_index: next.toString(), owner_address: raw(owner), collection_content: contentJson(content) };
        states.nftCollections.push(collection);
      }
    }
    if (tried.has('nft_item')) {
      const stack = okStack(await runQuiet(contract, 'get_nft_data', []), 5);
      const fields = stack && readNftItemData(stack);
      if (fields) {
        found.add('nft_item');
        const collectionAddress = fields.collection;
        let content: Record<string, string> = contentJson(fields.individualContent);
        let confirmed = true;
        if (collectionAddress) {
          const collection = await contractFor(rawAddressUpper(collectionAddress), collectionAddress);
          confirmed = await this.confirm(`${row.account}|${rawAddressUpper(collectionAddress)}|${fields.index}`, async () => {
            const answer = okStack(await runQuiet(collection, 'get_nft_address_by_index', [{ type: 'int', value: fields.index }]), 1);
            const given = stackAddress(answer?.[0]);
            return given instanceof Address && rawAddressUpper(given) === row.account;
          });
          if (confirmed && fields.init) {
            const full = okStack(await runQuiet(collection, 'get_nft_content', [{ type: 'int', value: fields.index }, { type: 'cell', cell: fields.individualContent }]), 1);
            const cell = stackCell(full?.[0]);
            if (cell) content = contentJson(cell);
          }
        }
        const root = confirmed && collectionAddress ? this.dnsRoots.get(rawAddressUpper(collectionAddress)) : undefined;
        if (root && fields.init) {
          const domain = await this.domainOf(contract, root);
          if (domain !== undefined) {
            // As toncenter: the domain joins the item's content; the records, when they read, make its entry.
            content = { ...content, domain };
            const records = readDnsRecords(await runQuiet(contract, 'dnsresolve', dnsResolveAll()));
            if (records) {
              const entry: DnsEntryRow = {
                nft_item_address: row.account,
                nft_item_owner: raw(fields.owner),
                domain,
                dns_next_resolver: records.nextResolver,
                dns_wallet: records.wallet,
                dns_site_adnl: records.siteAdnl,
                dns_storage_bag_id: records.storageBagId,
                last_transaction_lt: base.last_transaction_lt,
              };
              states.dnsEntries.push(entry);
            }
          }
        }
        if (confirmed) {
          const item: NftItemRow = {
            ...base,
            init: fields.init,
            index: fields.index.toString(),
            collection_address: raw(collectionAddress),
            owner_address: raw(fields.owner),
            content,
          };
          states.nftItems.push(item);
          nftItems.set(row.account, { index: fields.index.toString(), collection: raw(collectionAddress) });
        }
      }
    }
    if (tried.has('multisig')) {
      const multisig = await readMultisig(contract, base);
      if (multisig) {
        found.add('multisig');
        states.multisigs.push(multisig);
      }
    }
    if (tried.has('multisig_order')) {
      const claim = await readMultisigOrder(contract, base);
      if (claim) {
        found.add('multisig_order');
        const confirmed = await this.confirm(`${row.account}|${claim.row.multisig_address}|${claim.seqno}`, async () =>
          multisigConfirmsOrder(await contractFor(claim.row.multisig_address, claim.multisig), claim.seqno, row.account),
        );
        if (confirmed) states.multisigOrders.push(claim.row);
      }
    }
    if (tried.has('vesting')) {
      const vesting = await readVesting(contract, base);
      if (vesting) {
        found.add('vesting');
        states.vestings.push(vesting);
      }
    }
    return found;
  }

  /** A DNS item's domain by its root's method (`either`: `get_domain`, then `get_full_domain`). */
  private async domainOf(contract: LoadedContract, root: DomainMethod | 'either'): Promise<string | undefined> {
    if (root !== 'get_full_domain') {
      const domain = tonDomain(await runQuiet(contract, 'get_domain', []));
      if (domain !== undefined || root === 'get_domain') return domain;
    }
    return fullDomain(await runQuiet(contract, 'get_full_domain', []));
  }

  private async confirm(key: string, check: () => Promise<boolean>): Promise<boolean> {
    const cached = this.confirmations.get(key);
    if (cached !== undefined) return cached;
    const result = await check();
    // Only a confirmation is remembered: a parent not yet deployed at this block may confirm later.
    if (result) {
      if (this.confirmations.size >= MAX_CONFIRMATIONS) this.confirmations.delete(this.confirmations.keys().next().value!);
      this.confirmations.set(key, true);
    }
    return result;
  }
}
