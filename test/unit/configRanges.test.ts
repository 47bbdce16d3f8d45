import { ConfigError, loadConfig, OPTIONS } from '../../src/config';
import { DEFAULT_LOCALNET_MNEMONIC, SHARD_COUNTS } from '../../src/localnet';
import { parseLocalnetMnemonic } from '../../src/localnetSource';

/** Every numeric flag is range-checked at start, with an error naming the flag. */
describe('numeric flag ranges', () => {
  test('every numeric option has a range and its default is inside it', () => {
    const numeric = Object.values(OPTIONS).filter((spec) => spec.kind === 'int' || spec.kind === 'bytes');
    expect(numeric.length).toBeGreaterThan(10);
    for (const spec of numeric) {
      const { min, max } = spec as { min?: number; max?: number };
      expect([spec.flag, typeof min, typeof max]).toEqual([spec.flag, 'number', 'number']);
      expect(spec.defaultValue as number).toBeGreaterThanOrEqual(min!);
      expect(spec.defaultValue as number).toBeLessThanOrEqual(max!);
    }
  });

  test.each([
    [['--port', '70000'], '--port must be between 0 and 65535, got 70000'],
    [['--port', '-1'], '--port must be between 0 and 65535, got -1'],
    [['--metrics-port', '65536'], '--metrics-port must be between 0 and 65535, got 65536'],
    [['--request-timeout', '-5'], '--request-timeout must be between 1 and 86400000, got -5'],
    [['--query-timeout', '0'], '--query-timeout must be between 1 and 86400000, got 0'],
    [['--keep-alive-timeout', '-1'], '--keep-alive-timeout must be between 1 and 86400000, got -1'],
    [['--start-timeout', '0'], '--start-timeout must be between 1 and 86400000, got 0'],
    [['--send-fanout', '0'], '--send-fanout must be between 1 and 64, got 0'],
    [['--max-lag', '-3'], '--max-lag must be between 0 and 1000000, got -3'],
    [['--body-limit', '0'], '--body-limit must be between 1 and 1073741824, got 0'],
    [['--shutdown-grace', '99999999999'], '--shutdown-grace must be between 0 and 86400000, got 99999999999'],
    [['--port', '99999999999999999999'], '--port must be between 0 and 65535, got 100000000000000000000'],
  ])('%j is refused', (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(new ConfigError(message));
  });

  test('environment variables are checked the same way and named', () => {
    expect(() => loadConfig([], { TON_BRIDGE_HEALTH_INTERVAL: '0' })).toThrow(
      new ConfigError('TON_BRIDGE_HEALTH_INTERVAL must be between 10 and 3600000, got 0'),
    );
  });

  test('new options and their defaults', () => {
    const { config } = loadConfig([], {});
    expect([config.metricsPort, config.sendFanout, config.startTimeout, config.keepAliveTimeout]).toEqual([8082, 3, 30000, 65000]);
    expect(loadConfig(['--metrics-port', '0', '--send-fanout', '5'], {}).config).toMatchObject({ metricsPort: 0, sendFanout: 5 });
  });

  test.each([
    [['--shards', '3'], '--shards must be one of 1, 2, 4, 8, got 3'],
    [['--shards', '6'], '--shards must be one of 1, 2, 4, 8, got 6'],
    [['--shards', '0'], '--shards must be between 1 and 8, got 0'],
    [['--shards', '16'], '--shards must be between 1 and 8, got 16'],
  ])('%j: a value inside the range the chain cannot run is refused too', (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(new ConfigError(message));
  });

  test('--shards takes exactly the counts the local chain can split into, from the flag and the variable', () => {
    expect(OPTIONS.shards.choices.map(Number)).toEqual([...SHARD_COUNTS]);
    for (const count of SHARD_COUNTS) expect(loadConfig(['--shards', String(count)], {}).config.shards).toBe(count);
    expect(() => loadConfig([], { TON_BRIDGE_SHARDS: '5' })).toThrow(new ConfigError('TON_BRIDGE_SHARDS must be one of 1, 2, 4, 8, got 5'));
  });

  test('--mnemonic must be a TON mnemonic before the chain is built', async () => {
    await expect(parseLocalnetMnemonic('word another')).rejects.toThrow(new ConfigError('--mnemonic must be the 24 words of a TON mnemonic, got 2 words'));
    const scrambled = [...DEFAULT_LOCALNET_MNEMONIC].reverse().join(' ');
    await expect(parseLocalnetMnemonic(scrambled)).rejects.toThrow(/got 24 words that are not a TON mnemonic/);
    expect(await parseLocalnetMnemonic(`  ${DEFAULT_LOCALNET_MNEMONIC.join('  ')} `)).toEqual([...DEFAULT_LOCALNET_MNEMONIC]);
    expect(await parseLocalnetMnemonic(undefined)).toBeUndefined();
  });
});
