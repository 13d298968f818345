import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { operatorName } from '../cli/confirm.js'
import { checkScopes } from '../cli/scope-flag.js'

export default class Mcp extends AizkCommand {
  static override summary = 'Serve the queue to an AI assistant: an MCP server over stdio (read tools; actions only with --allow-actions).'
  static override description =
    "Speaks the Model Context Protocol on stdin/stdout until the client closes it; notes go to stderr. Read tools: PgQueuer's eleven (queue_size, queue_table_info, queue_stats, throughput_summary, failed_jobs, queue_log, schedules, stale_jobs, active_workers, queue_age, schema_info) on aizk's tables, plus job_story, queue_health, scope_roster and memory_backlog. --allow-actions adds requeue_jobs, cancel_jobs, pause_entrypoint and resume_entrypoint. --scope (repeatable) adds recall, which reads the memory graph of exactly that scope set (and its subsets) as the app role; no argument can widen it. Without --scope no tool reads memory content: the roster and backlog are counts. Configure it in an MCP client as the command `aizk mcp` (docs/mcp.md)."
  static override examples = [
    { command: '<%= config.bin %> mcp', description: 'Serve the read tools on stdio (an MCP client starts this command itself).' },
    { command: '<%= config.bin %> mcp --allow-actions', description: 'Also let the assistant requeue, cancel, pause and resume.' },
    {
      command: '<%= config.bin %> mcp --scope aaaaaaaa-0000-4000-8000-000000000001',
      description: 'Also serve recall over the memory of scope set {aaaaaaaa-...}.',
    },
  ]
  static override flags = {
    'allow-actions': Flags.boolean({
      description: 'Also register the tools that change the queue: requeue_jobs, cancel_jobs, pause_entrypoint, resume_entrypoint.',
      default: false,
    }),
    scope: Flags.string({
      char: 's',
      description: 'A scope uuid of the set recall reads under (repeatable; the set is all of them). Without it there is no recall tool.',
      multiple: true,
    }),
  }
  // The protocol owns stdout: no --json flag and no document (errors go to stderr).
  static override enableJsonFlag = false
  static override baseFlags = {} as typeof AizkCommand.baseFlags

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp)
    const readScopes = flags.scope ? checkScopes(flags.scope) : undefined
    const settings = await this.settings()
    const db = await this.database({ poolSize: 4, applicationName: 'aizk mcp' })
    const { createMcpServer } = await import('../mcp/server.js')
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js')
    const { trackPendingRequests } = await import('../mcp/pending-requests.js')
    const server = createMcpServer(
      { pool: db.pool, settings, actor: `${operatorName()} (mcp)` },
      { version: this.config.version, allowActions: flags['allow-actions'], readScopes },
    )
    const transport = new StdioServerTransport()
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve()
      process.stdin.once('end', () => resolve())
    })
    await server.connect(transport)
    const requests = trackPendingRequests(transport)
    this.note(
      `aizk mcp: serving ${flags['allow-actions'] ? 'read and action' : 'read'} tools on stdio${readScopes ? `, recall under {${readScopes.join(',')}}` : ''}`,
    )
    await closed
    // A client that wrote its last request and hung up still gets the answer.
    await requests.idle()
    await server.close()
  }
}
