/**
 * aizk's MCP server: the read tools always, the action tools only when asked for. The caller
 * (the `aizk mcp` command) owns the pool and the transport.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { actionTools } from './action-tools.js'
import type { McpContext } from './context.js'
import { memoryTools } from './memory-tools.js'
import { readTools } from './read-tools.js'
import { registerTools } from './register.js'

export const MCP_GUIDE = `aizk's queue (PgQueuer 1.3 tables) seen through read tools.
Start with queue_size and queue_health; backlog: queue_age, queue_table_info; throughput:
throughput_summary, queue_stats; failures: failed_jobs, then job_story for one job; workers:
active_workers, stale_jobs; schedules; schema_info; memory: scope_roster, memory_backlog, and
recall (answers from the memory graph of the one scope set this server was started for).
A held job (status failed) used its attempts and waits for a requeue.`

/** `readScopes`: the scope set recall reads under; without it there is no recall tool. */
export function createMcpServer(ctx: McpContext, opts: { version: string; allowActions: boolean; readScopes?: string[] }): McpServer {
  const server = new McpServer({ name: 'aizk', version: opts.version }, { instructions: MCP_GUIDE })
  registerTools(server, readTools(ctx, opts.readScopes?.length ? opts.readScopes : undefined))
  if (opts.readScopes?.length) registerTools(server, memoryTools({ ...ctx, readScopes: opts.readScopes }))
  if (opts.allowActions) registerTools(server, actionTools(ctx))
  return server
}
