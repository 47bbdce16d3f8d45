import { rollbackTo } from '../../src/indexdb';
import { CONTRACT, createIndexDatabase, hashOf, seedChain, TX1, TX2, TX3, WALLET, type IndexDatabase } from '../v3/indexFixture';

/**
 * The token tables under a rollback (the embedded chain rewound): transfers and burns go with
 * their transactions (the cascading foreign key), the token states of the accounts the removed
 * blocks touched are dropped (they come back with the next state), the rest stays.
 */

let db: IndexDatabase;

beforeAll(async () => {
  db = await createIndexDatabase();
  await seedChain(db.client);
  const mc2 = await db.client.query<{ root_hash: Buffer; file_hash: Buffer }>('select root_hash, file_hash from blocks where workchain = -1 and seqno = 2');
  await db.client.query('insert into index_checkpoint (id, first_mc_seqno, mc_seqno, root_hash, file_hash, gen_utime) values (1, 1, 2, $1, $2, 1005)', [
    mc2.rows[0]!.root_hash,
    mc2.rows[0]!.file_hash,
  ]);
  // WALLET's transactions: TX1 (mc 1) and TX3 (mc 2); CONTRACT's: TX2 (mc 2).
  const wallet = `insert into jetton_wallets (address, balance, owner, jetton, last_transaction_lt, code_hash, data_hash) values ($1, 5, $2, $3, $4, $5, $5)`;
  await db.client.query(wallet, [WALLET, CONTRACT, CONTRACT, TX3.lt, hashOf('code')]);
  await db.client.query(wallet, [`0:${'DD'.repeat(32)}`, CONTRACT, CONTRACT, 5, hashOf('code')]);
  const event = `insert into jetton_burns (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, owner, jetton_wallet_address, jetton_master_address, amount)
    values ($1, $2, 1, false, $3, 0, $4, $4, $4, 1)`;
  await db.client.query(event, [TX1.hash, TX1.lt, 1, WALLET]);
  await db.client.query(event, [TX3.hash, TX3.lt, 2, WALLET]);
  await db.client.query(
    `insert into nft_transfers (tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno, query_id, nft_item_address) values ($1, $2, 1, false, 2, 0, $3)`,
    [TX2.hash, TX2.lt, CONTRACT],
  );
  // Multisig and vesting states (migration 4): CONTRACT's are touched by block 2, OTHER's are not.
  for (const address of [CONTRACT, OTHER]) {
    await db.client.query(`insert into multisig (address, threshold, signers, proposers, last_transaction_lt) values ($1, 1, array[$2], '{}', 1)`, [address, WALLET]);
    await db.client.query(`insert into multisig_orders (address, multisig_address, signers, last_transaction_lt) values ($1, $1, array[$2], 1)`, [address, WALLET]);
    await db.client.query(`insert into vesting_contracts (address, owner_address, last_transaction_lt) values ($1, $2, 1)`, [address, WALLET]);
    await db.client.query(`insert into vesting_whitelist (vesting_contract_address, wallet_address) values ($1, $2)`, [address, WALLET]);
  }
}, 30_000);

const OTHER = `0:${'EE'.repeat(32)}`;
const MULTISIG_VESTING_TABLES = ['multisig', 'multisig_orders', 'vesting_contracts'];

afterAll(async () => {
  await db?.drop();
});

test('rolling back to masterchain block 1 removes block 2\'s events and the touched accounts\' token states', async () => {
  await db.client.query('begin');
  await rollbackTo(db.client, 1);
  await db.client.query('commit');
  const burns = await db.client.query<{ tx_lt: string }>('select tx_lt from jetton_burns order by tx_lt');
  expect(burns.rows.map((r) => r.tx_lt)).toEqual([TX1.lt]);
  expect((await db.client.query('select 1 from nft_transfers')).rowCount).toBe(0);
  const wallets = await db.client.query<{ address: string }>('select address from jetton_wallets');
  expect(wallets.rows.map((r) => r.address)).toEqual([`0:${'DD'.repeat(32)}`]);
  for (const table of MULTISIG_VESTING_TABLES) {
    expect((await db.client.query<{ address: string }>(`select address from ${table}`)).rows.map((r) => r.address)).toEqual([OTHER]);
  }
  const whitelist = await db.client.query<{ vesting_contract_address: string }>('select vesting_contract_address from vesting_whitelist');
  expect(whitelist.rows.map((r) => r.vesting_contract_address)).toEqual([OTHER]);
});

test('rolling back below the first block empties the token tables too', async () => {
  await db.client.query('begin');
  await rollbackTo(db.client, 0);
  await db.client.query('commit');
  for (const table of ['jetton_wallets', 'jetton_burns', 'nft_transfers', ...MULTISIG_VESTING_TABLES, 'vesting_whitelist']) {
    expect((await db.client.query(`select 1 from ${table}`)).rowCount).toBe(0);
  }
});
