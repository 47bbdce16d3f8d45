import { Address, Cell, loadShardAccount, parseTuple, serializeTuple, TupleItem, TupleReader } from '@ton/core';
import { accountLeaf, LocalChain } from '../../src/localnet/ledger/LocalChain';
import { configParam } from '../../src/localnet/ledger/config';
import { compileAll } from '../../src/localnet/contracts/compile';
import compiled from '../../src/localnet/contracts/compiled.json';

const CONFIG = Address.parse('-1:' + '5'.repeat(64));
const ELECTOR = Address.parse('-1:' + '3'.repeat(64));

/** The method id FunC gives a named get-method: crc16-xmodem of the name, with bit 16 set. */
function methodId(name: string): number {
  let crc = 0;
  for (const byte of Buffer.from(name)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc | 0x10000;
}

describe('system contracts', () => {
  test('the committed code is what config.fc and elector.fc compile to', async () => {
    const fresh = await compileAll();
    for (const name of ['config', 'elector'] as const) {
      expect(Cell.fromBase64(fresh[name]).hash().toString('hex')).toBe(Cell.fromBase64(compiled[name]).hash().toString('hex'));
    }
  }, 60000);

  describe('on a chain', () => {
    let chain: LocalChain;
    beforeAll(async () => {
      chain = await LocalChain.create({ blockIntervalMs: 0 });
      await chain.seal();
      await chain.seal();
    }, 60000);
    afterAll(async () => {
      await chain?.stop();
    });

    async function run(address: Address, method: string, args: TupleItem[] = []): Promise<{ exitCode: number; stack: TupleReader }> {
      const last = chain.lastMasterchainBlock();
      const res = await chain.runGetMethod({
        state: last.state,
        genUtime: last.genUtime,
        mcSeqno: last.id.seqno,
        address,
        methodId: methodId(method),
        params: args.length > 0 ? serializeTuple(args).toBoc() : Buffer.alloc(0),
      });
      return { exitCode: res.exitCode, stack: new TupleReader(res.stack ? parseTuple(Cell.fromBoc(res.stack)[0]) : []) };
    }

    test('p0 and p1 name the config contract and the elector', () => {
      expect(configParam(chain.config.root, 0)?.beginParse().loadBuffer(32).equals(CONFIG.hash)).toBe(true);
      expect(configParam(chain.config.root, 1)?.beginParse().loadBuffer(32).equals(ELECTOR.hash)).toBe(true);
    });

    test('config contract: seqno 0, the validator key, and the chain config as the first data reference', async () => {
      const seqno = await run(CONFIG, 'seqno');
      expect(seqno.exitCode).toBe(0);
      expect(seqno.stack.readBigNumber()).toBe(0n);
      const key = await run(CONFIG, 'get_public_key');
      expect(key.exitCode).toBe(0);
      expect(key.stack.readBigNumber()).toBe(BigInt('0x' + chain.validator.publicKey.toString('hex')));
    });

    test('elector: no running election, no participants, no past elections, no credits', async () => {
      expect((await run(ELECTOR, 'active_election_id')).stack.readBigNumber()).toBe(0n);
      const pubkey = BigInt('0x' + chain.validator.publicKey.toString('hex'));
      expect((await run(ELECTOR, 'participates_in', [{ type: 'int', value: pubkey }])).stack.readBigNumber()).toBe(0n);
      const list = await run(ELECTOR, 'participant_list');
      expect(list.exitCode).toBe(0);
      expect(list.stack.peek().type).toBe('null');
      const past = await run(ELECTOR, 'past_elections');
      expect(past.exitCode).toBe(0);
      expect(past.stack.peek().type).toBe('null');
      const ids = await run(ELECTOR, 'past_election_ids');
      expect(ids.stack.peek().type).toBe('null');
      const wallet = BigInt('0x' + Buffer.alloc(32, 7).toString('hex'));
      const stake = await run(ELECTOR, 'compute_returned_stake', [{ type: 'int', value: wallet }]);
      expect(stake.exitCode).toBe(0);
      expect(stake.stack.readBigNumber()).toBe(0n);
    });

    test('an unknown get-method fails as in TON (exit code 11)', async () => {
      expect((await run(CONFIG, 'no_such_method')).exitCode).toBe(11);
    });

    test('every masterchain block: the elector tick first, the config tock last', () => {
      for (const block of chain.store.blocks(-1)) {
        const txs = [...block.transactions].sort((a, b) => (a.lt < b.lt ? -1 : 1));
        expect(txs.length).toBeGreaterThanOrEqual(2);
        expect(txs[0].address.equals(ELECTOR.hash)).toBe(true);
        expect(txs[txs.length - 1].address.equals(CONFIG.hash)).toBe(true);
      }
    });

    test('in every masterchain state the config contract is special and its data references the chain configuration', () => {
      for (const block of chain.store.blocks(-1)) {
        const leaf = accountLeaf(block.state, CONFIG);
        const account = leaf ? loadShardAccount(leaf).account : null;
        const state = account?.storage.state;
        if (state?.type !== 'active') throw new Error('config contract not active');
        expect(state.state.special).toEqual({ tick: false, tock: true });
        expect(state.state.data?.refs[0].hash().equals(chain.config.root.hash())).toBe(true);
        const elector = loadShardAccount(accountLeaf(block.state, ELECTOR)!).account?.storage.state;
        expect(elector?.type === 'active' && elector.state.special).toEqual({ tick: true, tock: false });
      }
    });
  });
});
