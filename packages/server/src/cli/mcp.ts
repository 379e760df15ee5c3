import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command, Option } from 'commander';
import { type Config, loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { ensureHub } from '../protocols/mcp/ensure-hub.js';
import { resolveActor } from '../protocols/mcp/identity.js';
import { createBatonMcpServer } from '../protocols/mcp/mcp-server.js';
import { RemoteBackend } from '../protocols/mcp/remote-backend.js';

interface McpFlags {
  agent?: string;
  runtime?: string;
  context?: string;
  url?: string;
  token?: string;
  data?: string;
  start: boolean;
}

/** The environment with the flags laid over it, parsed once by config.ts. */
function mcpConfig(flags: McpFlags): { config: Config; env: NodeJS.ProcessEnv } {
  const env = { ...process.env };
  if (flags.agent) env.BATON_AGENT = flags.agent;
  if (flags.runtime) env.BATON_RUNTIME = flags.runtime;
  if (flags.context) env.BATON_CONTEXT = flags.context;
  if (flags.url) env.BATON_URL = flags.url;
  if (flags.token) env.BATON_TOKEN = flags.token;
  if (flags.data) env.BATON_DATA = flags.data;
  return { config: loadConfig(env), env };
}

/**
 * `baton mcp`: MCP over stdio for a coding agent. It talks to the hub at
 * BATON_URL and never opens the database; when no hub answers on a loopback
 * URL it starts `baton serve` in the background. stdout carries only
 * JSON-RPC: everything else, logs included, goes to stderr.
 */
export function mcpCommand(): Command {
  return new Command('mcp')
    .description('serve MCP over stdio for a coding agent, through the hub at $BATON_URL (started in the background if none answers)')
    .addOption(new Option('--agent <name>', "who this agent writes as (env BATON_AGENT; default: the MCP client's name)"))
    .addOption(new Option('--runtime <runtime>', 'the agent runtime: claude-code, codex, cursor, … (env BATON_RUNTIME)'))
    .addOption(new Option('--context <id>', 'the context tools use when a call names none (env BATON_CONTEXT)'))
    .addOption(new Option('--url <url>', 'the hub (env BATON_URL, default http://127.0.0.1:$BATON_PORT)'))
    .addOption(new Option('--token <token>', 'bearer token for the hub (env BATON_TOKEN)'))
    .addOption(new Option('--data <dir>', 'data directory of a hub this command starts (env BATON_DATA, default ./.baton)'))
    .addOption(new Option('--no-start', 'never start a hub: fail when none answers'))
    .action(async (flags: McpFlags) => {
      let setup: ReturnType<typeof mcpConfig>;
      try {
        setup = mcpConfig(flags);
      } catch (error) {
        process.stderr.write(`baton mcp: ${(error as Error).message}\n`);
        process.exit(2);
      }
      const { config, env } = setup;
      const log = createLogger(config.logLevel, 'baton-mcp');
      let url: string;
      try {
        const cli = fileURLToPath(new URL('./main.js', import.meta.url));
        ({ url } = await ensureHub({ url: config.url, start: flags.start ? { cli, dataDir: config.dataDir, env } : null, log }));
      } catch (error) {
        process.stderr.write(`baton mcp: ${(error as Error).message}\n`);
        process.exit(1);
      }
      const session = createBatonMcpServer({
        actor: (clientName) => resolveActor({ agent: config.agent, runtime: config.runtime }, clientName),
        backend: (actor) =>
          new RemoteBackend({
            url,
            token: config.token,
            actor,
            onLiveError: (error) => log.warn({ err: error }, 'live feed connection failed; reconnecting'),
          }),
        contextId: config.contextId,
        log,
      });
      let stopping = false;
      const stop = async (reason: string) => {
        if (stopping) return;
        stopping = true;
        log.info({ reason }, 'baton mcp stopping');
        await session.close().catch((error: unknown) => log.warn({ err: error }, 'close failed'));
        log.flush();
        process.exit(0);
      };
      // The client ends a stdio session by closing our stdin.
      process.stdin.once('end', () => void stop('stdin closed'));
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
      await session.server.connect(new StdioServerTransport());
      log.info({ url, agent: config.agent, runtime: config.runtime, context: config.contextId }, 'baton mcp ready on stdio');
    });
}
