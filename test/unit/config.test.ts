import { ConfigError, helpText, loadConfig, OPTIONS } from '../../src/config';

describe('configuration', () => {
  test('defaults', () => {
    const { command, config } = loadConfig([], {});
    expect(command).toBe('serve');
    expect(config.port).toBe(8081);
    expect(config.bodyLimit).toBe(1024 * 1024);
    expect(config.network).toBe('local');
    expect(config.requestTimeout).toBe(10000);
  });

  test('flags win over environment variables, which win over defaults', () => {
    const env = { TON_BRIDGE_PORT: '9000', TON_BRIDGE_LOG_LEVEL: 'debug' };
    expect(loadConfig([], env).config.port).toBe(9000);
    expect(loadConfig(['--port', '8090'], env).config.port).toBe(8090);
    expect(loadConfig(['--port=8091'], env).config.port).toBe(8091);
    expect(loadConfig([], env).config.logLevel).toBe('debug');
  });

  test('sizes accept units', () => {
    expect(loadConfig(['--body-limit', '512kb'], {}).config.bodyLimit).toBe(512 * 1024);
    expect(loadConfig(['--body-limit', '2mb'], {}).config.bodyLimit).toBe(2 * 1024 * 1024);
  });

  test('an unknown flag is an error with a hint', () => {
    expect(() => loadConfig(['--prot', '1'], {})).toThrow(new ConfigError('unknown option --prot (did you mean --port?)'));
    expect(() => loadConfig(['--zzzzzzzzzz'], {})).toThrow(/unknown option --zzzzzzzzzz \(see --help\)/);
  });

  test('bad values are errors', () => {
    expect(() => loadConfig(['--port', 'eighty'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--network', 'moon'], {})).toThrow(/must be one of local, mainnet, testnet/);
    expect(() => loadConfig([], { TON_BRIDGE_PORT: 'x' })).toThrow(/TON_BRIDGE_PORT expects an integer/);
    expect(() => loadConfig(['--port'], {})).toThrow(/needs a value/);
  });

  test('commands and help', () => {
    expect(loadConfig(['localnet', '--config-out', 'x.json'], {}).command).toBe('localnet');
    expect(loadConfig(['--help'], {}).command).toBe('help');
    const text = helpText();
    for (const spec of Object.values(OPTIONS)) expect(text).toContain(`--${spec.flag}`);
  });
});
