import { AizkCommand } from '../../cli/base-command.js'
import { describeUrl } from '../../db/connect.js'
import { defaultDataDir, embeddedServerStatus } from '../../db/embedded.js'

export default class ServerStatus extends AizkCommand {
  static override summary = 'Show whether the embedded PostgreSQL runs, where, and on which port.'
  static override examples = [{ command: '<%= config.bin %> server status --json', description: 'Machine-readable state.' }]

  async run() {
    await this.parse(ServerStatus)
    const settings = await this.settings()
    const dataDir = settings.dataDir ?? defaultDataDir(settings.env)
    const s = await embeddedServerStatus(dataDir)
    const out = {
      dataDir,
      initialised: s.initialised,
      running: s.running,
      port: s.port ?? null,
      pid: s.pid ?? null,
      configuredUrl: settings.databaseUrl ? describeUrl(settings.databaseUrl) : null,
    }
    if (this.jsonEnabled()) return out
    if (!s.initialised) this.log(`no embedded server in ${dataDir} yet (it is created on first use)`)
    else this.log(`${s.running ? 'running' : 'stopped'}: ${dataDir}, 127.0.0.1:${s.port}${s.pid ? `, pid ${s.pid}` : ''}`)
    if (out.configuredUrl) this.log(`note: AIZK_DATABASE_URL is set (${out.configuredUrl}); commands use that server`)
    return out
  }
}
