import { AizkCommand } from '../../cli/base-command.js'
import { defaultDataDir, stopEmbeddedServer } from '../../db/embedded.js'

export default class ServerStop extends AizkCommand {
  static override summary = 'Stop the embedded PostgreSQL (fast shutdown; data is kept).'
  static override examples = [
    { command: '<%= config.bin %> server stop --json', description: 'The same as JSON.' },
    { command: '<%= config.bin %> server stop', description: 'Stop the shared embedded server.' },
  ]

  async run() {
    await this.parse(ServerStop)
    const settings = await this.settings()
    const dataDir = settings.dataDir ?? defaultDataDir(settings.env)
    const stopped = await stopEmbeddedServer(dataDir, settings.env)
    if (this.jsonEnabled()) return { dataDir, stopped }
    this.log(stopped ? `stopped the embedded server in ${dataDir}` : `no embedded server was running in ${dataDir}`)
    return { dataDir, stopped }
  }
}
