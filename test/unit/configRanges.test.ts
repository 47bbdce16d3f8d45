import { ConfigError, loadConfig, OPTIONS } from '../../src/config';

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
});
