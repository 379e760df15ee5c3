#!/usr/bin/env node
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { mcpCommand } from './mcp.js';
import { migrateCommand } from './migrate.js';
import { searchCommand } from './search.js';
import { serveCommand } from './serve.js';
import { tailCommand } from './tail.js';

const program = new Command('baton')
  .description('baton — the context hub for AI agents: one timeline per context, shared live')
  .version(VERSION)
  .showHelpAfterError();

program.addCommand(serveCommand());
program.addCommand(migrateCommand());
program.addCommand(mcpCommand());
program.addCommand(tailCommand());
program.addCommand(searchCommand());

await program.parseAsync(process.argv);
