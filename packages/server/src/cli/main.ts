#!/usr/bin/env node
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { migrateCommand } from './migrate.js';
import { serveCommand } from './serve.js';

const program = new Command('baton')
  .description('baton — the context hub for AI agents: one timeline per context, shared live')
  .version(VERSION)
  .showHelpAfterError();

program.addCommand(serveCommand());
program.addCommand(migrateCommand());

await program.parseAsync(process.argv);
