import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Config, ConfigError, loadConfig } from '../config.js';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return port;
}

/** Store options shared by every command that opens the store. */
export function storeOptions(command: Command): Command {
  return command
    .addOption(new Option('--data <dir>', 'data directory for embedded SQLite (env BATON_DATA, default ./.baton)'))
    .addOption(new Option('--db <url>', 'use PostgreSQL at this postgres:// URL instead of SQLite (env BATON_DB)'));
}

export interface StoreFlags {
  data?: string;
  db?: string;
}

/** The environment's config with the command's flags laid over it. */
export function configFrom(flags: StoreFlags & { host?: string; port?: number; token?: string }): Config {
  const env = { ...process.env };
  if (flags.data) env.BATON_DATA = flags.data;
  if (flags.db) env.BATON_DB = flags.db;
  if (flags.host) env.BATON_HOST = flags.host;
  if (flags.port !== undefined) env.BATON_PORT = String(flags.port);
  if (flags.token) env.BATON_TOKEN = flags.token;
  try {
    return loadConfig(env);
  } catch (error) {
    // Name the flag the user typed rather than the variable it was passed through.
    const flag = error instanceof ConfigError ? FLAGS[error.variable] : undefined;
    if (error instanceof ConfigError && flag && flags[flag.key] !== undefined) throw new Error(`${flag.name} ${error.problem}`);
    throw error;
  }
}

const FLAGS: Record<string, { key: 'data' | 'db' | 'host' | 'port' | 'token'; name: string }> = {
  BATON_DATA: { key: 'data', name: '--data' },
  BATON_DB: { key: 'db', name: '--db' },
  BATON_HOST: { key: 'host', name: '--host' },
  BATON_PORT: { key: 'port', name: '--port' },
  BATON_TOKEN: { key: 'token', name: '--token' },
};
