import type { Express } from 'express';
import { createApp } from '../../src/app';
import { loadConfig, type AppConfig } from '../../src/config';
import { createHandlerTable } from '../../src/methods';
import { createLogger } from '../../src/logging/index';
import type { AppServices } from '../../src/routes/services';
import { logLineSink } from './logLines';

export interface TestApp {
  app: Express;
  services: AppServices;
  /** Every log line the app wrote. */
  logLines: string[];
}

/** An app over the real handler table, with config from flags and logs captured in memory. */
export function buildTestApp(flags: string[] = [], extra: Partial<AppServices> = {}): TestApp {
  const logLines: string[] = [];
  const sink = logLineSink(logLines);
  const config: AppConfig = loadConfig(['--log-level', 'info', ...flags], {}).config;
  const services: AppServices = { config, logger: createLogger(config.logLevel, sink), table: createHandlerTable(), ...extra };
  return { app: createApp(services), services, logLines };
}
