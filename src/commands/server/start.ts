import { AizkCommand } from '../../cli/base-command.js'
import { defaultDataDir, ensureEmbeddedServer } from '../../db/embedded.js'
import { UsageError } from '../../errors.js'

export default class ServerStart extends AizkCommand {
  static override summary = 'Start the embedded PostgreSQL (every command also does this on first use).'
  static override examples = [
    { command: '<%= config.bin %> server start --json', description: 'The same as JSON.' },
    { command: '<%= config.bin %> server start', description: 'Start it, or report that it runs.' },
  ]

  async run() {
    await this.parse(ServerStart)
    const settings = await this.settings()
    if (settings.databaseUrl)
      throw new UsageError('AIZK_DATABASE_URL is set, so aizk uses that server, not the embedded one', 'unset AIZK_DATABASE_URL to use the embedded server')
    const dataDir = settings.dataDir ?? defaultDataDir(settings.env)
    const server = await ensureEmbeddedServer({ dataDir, port: settings.embeddedPort, log: (l) => this.note(l), env: settings.env })
    const result = { dataDir, port: server.port, started: server.started }
    if (this.jsonEnabled()) return result
    this.log(server.started ? `started on 127.0.0.1:${server.port}, data in ${dataDir}` : `already running on 127.0.0.1:${server.port}, data in ${dataDir}`)
    return result
  }
}
