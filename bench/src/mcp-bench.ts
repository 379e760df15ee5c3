import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BatonClient } from 'baton/client';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { startBaton, startNoopMcpHttp } from './timeline/processes.js';
import { scratchDir } from './timeline/sqlite-files.js';
import { int, ms, percentile } from './timeline/stats.js';

/**
 * MCP round trips (issue 3): a write (`log_activity`) and a keyword search
 * (`context_search`) through baton — over stdio via the real `baton mcp`
 * (which talks to a real `baton serve`), and over Streamable HTTP at /mcp —
 * beside the official reference memory server
 * (@modelcontextprotocol/server-memory: `add_observations`, `search_nodes`), all driven by
 * the same SDK Client in the same run, with 1,000 and then 10,000 items
 * stored. A round trip is one `tools/call` from send to parsed result.
 */

const require = createRequire(import.meta.url);
const BATON_CLI = join(dirname(require.resolve('baton')), 'cli', 'main.js');
// The package has no entry point, only its binary.
const NOOP_SERVER = fileURLToPath(new URL('./mcp/noop-server.ts', import.meta.url));
const MEMORY_SERVER = join(dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist', 'index.js');
const CONTEXT = 'mcp-bench';
const ENTITIES = 100;

async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'baton-bench', version: '1.0.0' });
  await client.connect(transport);
  // Caches the output-schema validators, as a real client does before calling tools.
  await client.listTools();
  return client;
}

interface Side {
  transport: string;
  /** One timed call; `i` varies its argument so that no two calls are alike. */
  call(i: number): Promise<void>;
}

/** One operation measured on both servers: the reference's way and baton's. */
interface Operation {
  label: string;
  reference: Side;
  baton: Side[];
  /** The SDK's own server with a tool that stores nothing, per transport: no MCP server can answer faster. */
  floors?: Side[];
}

function writes(memory: Client, batons: [Client, string][], floors: [Client, string][], tag: string): Operation {
  const text = (i: number) => `bench ${tag} write ${i}: edited src/auth.ts`;
  return {
    label: 'write: log_activity / add_observations',
    floors: floors.map(([client, transport]) => ({
      transport,
      call: async (i) => {
        await callOk(client, 'noop', { activityType: 'agent_action', text: text(i) });
      },
    })),
    reference: {
      transport: 'stdio',
      call: async (i) => {
        await callOk(memory, 'add_observations', { observations: [{ entityName: `entity-${i % ENTITIES}`, contents: [text(i)] }] });
      },
    },
    baton: batons.map(([client, transport]) => ({
      transport,
      call: async (i) => {
        await callOk(client, 'log_activity', { activityType: 'agent_action', text: text(i) });
      },
    })),
  };
}

/** Two words that occur together in exactly one seeded item (the reference's substring match may find a few more). */
function keywords(i: number, size: number): string {
  return `item ${(i * 7919) % size}`;
}

function searches(memory: Client, batons: [Client, string][], size: number): Operation {
  return {
    label: 'keyword search: context_search / search_nodes',
    reference: {
      transport: 'stdio',
      call: async (i) => {
        await callOk(memory, 'search_nodes', { query: keywords(i, size) });
      },
    },
    baton: batons.map(([client, transport]) => ({
      transport,
      call: async (i) => {
        await callOk(client, 'context_search', { query: keywords(i, size), contextId: CONTEXT, limit: 10 });
      },
    })),
  };
}

/** Brings each store to `target` items with batched writes that are not timed. */
async function seed(rest: BatonClient, memory: Client, from: number, target: number): Promise<void> {
  for (let at = from; at < target; at += 1000) {
    const n = Math.min(1000, target - at);
    await rest.appendEvents(
      CONTEXT,
      Array.from({ length: n }, (_, k) => ({
        kind: 'activity' as const,
        activityType: 'agent_action' as const,
        content: [{ type: 'text' as const, text: `seed item ${at + k}: refactored module ${(at + k) % 97}` }],
      })),
    );
    const byEntity = new Map<string, string[]>();
    for (let k = 0; k < n; k++) {
      const name = `entity-${(at + k) % ENTITIES}`;
      byEntity.set(name, [...(byEntity.get(name) ?? []), `seed item ${at + k}: refactored module ${(at + k) % 97}`]);
    }
    await callOk(memory, 'add_observations', { observations: [...byEntity].map(([entityName, contents]) => ({ entityName, contents })) });
  }
}

/**
 * Round trips of every side, taken in turn (one call each, round after round),
 * so that whatever else the machine is doing weighs on all sides alike.
 */
async function measure(sides: readonly Side[], iterations: number, warmup: number): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const side of sides) await side.call(iterations + i);
  const samples = sides.map(() => [] as number[]);
  for (let i = 0; i < iterations; i++) {
    for (const [k, side] of sides.entries()) {
      const t0 = performance.now();
      await side.call(i);
      samples[k]?.push(performance.now() - t0);
    }
  }
  return samples;
}

export async function run(): Promise<BenchTable> {
  const scale = benchScale();
  const iterations = scale.pick(100, 300);
  const warmup = scale.pick(10, 30);
  const sizes = [1000, 10_000];
  const scratch = scratchDir('baton-mcp-bench-');
  const hub = await startBaton(scratch.dir);
  const clients: Client[] = [];
  let noopHttp: Awaited<ReturnType<typeof startNoopMcpHttp>> | null = null;
  try {
    const rest = new BatonClient({ url: hub.url, actor: { id: 'bench-seeder' } });
    await rest.createContext({ id: CONTEXT, title: 'MCP benchmark' });
    const env = { ...process.env, BATON_URL: hub.url, BATON_LOG_LEVEL: 'warn' } as Record<string, string>;
    const stdio = await connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BATON_CLI, 'mcp', '--no-start', '--agent', 'bench', '--context', CONTEXT],
        env,
        stderr: 'ignore',
      }),
    );
    const http = await connect(
      new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp`), {
        requestInit: { headers: { 'x-baton-actor': 'bench', 'x-baton-context': CONTEXT } },
      }),
    );
    const memory = await connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MEMORY_SERVER],
        stderr: 'ignore',
        env: { ...process.env, MEMORY_FILE_PATH: join(scratch.dir, 'memory.jsonl') } as Record<string, string>,
      }),
    );
    const noopStdio = await connect(
      new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', NOOP_SERVER], stderr: 'ignore' }),
    );
    noopHttp = await startNoopMcpHttp();
    const noopOverHttp = await connect(new StreamableHTTPClientTransport(new URL(`${noopHttp.url}/mcp`)));
    const floors: [Client, string][] = [
      [noopStdio, 'stdio'],
      [noopOverHttp, 'Streamable HTTP'],
    ];
    clients.push(stdio, http, memory, noopStdio, noopOverHttp);
    await callOk(memory, 'create_entities', {
      entities: Array.from({ length: ENTITIES }, (_, i) => ({ name: `entity-${i}`, entityType: 'module', observations: [] })),
    });

    // The search tool arrives with the handoff issue; until a hub has it, the table says so.
    const canSearch = (await stdio.listTools()).tools.some((t) => t.name === 'context_search');
    const batons: [Client, string][] = [
      [stdio, 'stdio'],
      [http, 'Streamable HTTP'],
    ];
    const rows: (string | number)[][] = [];
    const p50s = new Map<string, number>();
    const floorP50s = new Map<string, number>();
    const loads: string[] = [];
    let stored = 0;
    for (const size of sizes) {
      await seed(rest, memory, stored, size);
      const operations = [writes(memory, batons, floors, String(size)), ...(canSearch ? [searches(memory, batons, size)] : [])];
      for (const operation of operations) {
        const floorSides = operation.floors ?? [];
        const [reference = [], ...measured] = await measure([operation.reference, ...operation.baton, ...floorSides], iterations, warmup);
        const refP50 = percentile(reference, 50);
        p50s.set(`${operation.label}|ref|${size}`, refP50);
        for (const [k, samples] of measured.entries()) {
          const isFloor = k >= operation.baton.length;
          const side = isFloor ? floorSides[k - operation.baton.length] : operation.baton[k];
          const transport = side?.transport ?? '';
          if (isFloor) {
            const p50 = percentile(samples, 50);
            floorP50s.set(`${transport}|${size}`, p50);
            rows.push([
              int(size),
              'floor: the SDK’s McpServer, a no-op tool (stores nothing)',
              transport,
              ms(p50),
              ms(percentile(samples, 99)),
              ms(refP50),
              ms(percentile(reference, 99)),
              `${(refP50 / p50).toFixed(1)}× (the most any server could reach)`,
            ]);
            continue;
          }
          const p50 = percentile(samples, 50);
          p50s.set(`${operation.label}|${transport}|${size}`, p50);
          rows.push([
            int(size),
            operation.label,
            transport,
            ms(p50),
            ms(percentile(samples, 99)),
            ms(refP50),
            ms(percentile(reference, 99)),
            `${(refP50 / p50).toFixed(1)}×`,
          ]);
        }
      }
      loads.push(`${int(size)}: ${loadavg()[0]?.toFixed(1)}`);
      // Measured writes are stored too (baton's twice, once per transport): the next size seeds the rest.
      stored = size + iterations + warmup;
    }
    const flat = (label: string, transport: string) =>
      ((p50s.get(`${label}|${transport}|10000`) ?? Number.NaN) / (p50s.get(`${label}|${transport}|1000`) ?? Number.NaN)).toFixed(2);
    const write = 'write: log_activity / add_observations';
    const notes = [
      `${iterations} calls per row after ${warmup} warm-up calls, the three clients taking turns call by call so that load on the machine weighs on all alike; p50/p99 nearest-rank. One \`baton serve\` (SQLite) behind both baton transports; \`baton mcp\` is a separate process relaying to it over HTTP, so stdio pays two hops.`,
      `Reference: @modelcontextprotocol/server-memory over stdio (it has no HTTP transport): \`add_observations\` of one observation to one of ${ENTITIES} entities, \`search_nodes\` for two words; it rereads (and for writes rewrites) its whole JSONL file on every call.`,
      'Target: ≥ 10× faster than the reference at 10,000 items, and flat as items grow.',
      `Floor rows: the official SDK's own McpServer (stdio; Streamable HTTP in session mode with JSON answers, on @hono/node-server) with one tool that validates its input and output schemas and stores nothing, driven by the same client in the same rounds. No MCP server, baton or other, answers a tool call faster than that; at 10,000 items the reference's p50 is ${((p50s.get(`${write}|ref|10000`) ?? Number.NaN) / (floorP50s.get('stdio|10000') ?? Number.NaN)).toFixed(1)}× the stdio floor and ${((p50s.get(`${write}|ref|10000`) ?? Number.NaN) / (floorP50s.get('Streamable HTTP|10000') ?? Number.NaN)).toFixed(1)}× the HTTP floor. baton's stdio path adds a second hop on top (\`baton mcp\` relays to the hub over HTTP, since it never opens the database itself).`,
      `Flatness of writes, baton p50 at 10,000 ÷ at 1,000: stdio ${flat(write, 'stdio')}, HTTP ${flat(write, 'Streamable HTTP')}.`,
      canSearch
        ? 'Keyword search: baton’s `context_search` (full-text index) for two words in one context, 10 hits at most.'
        : 'Keyword search is not measured: this hub has no `context_search` tool yet.',
      `1-minute load average when each size finished (${availableParallelism()} cores): ${loads.join(', ')}.`,
    ];
    return {
      title: 'MCP round trips: baton vs @modelcontextprotocol/server-memory',
      columns: [
        'items stored',
        'operation',
        'baton transport',
        'baton p50',
        'baton p99',
        'server-memory p50',
        'server-memory p99',
        'speed-up (p50)',
      ],
      rows,
      notes,
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await hub.stop();
    await noopHttp?.stop();
    scratch.remove();
  }
}
