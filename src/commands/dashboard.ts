import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { wholeFlag } from '../cli/flags.js'
import { listenHost } from '../dashboard/listen.js'
import { newCsrfToken } from '../dashboard/security.js'
import { checkBind, startDashboard } from '../dashboard/server.js'

export default class Dashboard extends AizkCommand {
  static override summary = 'Serve the web dashboard: overview, entrypoints, jobs by state, one job, held jobs, schedules and scope sets, live.'
  static override description =
    'A web dashboard on node:http, 127.0.0.1 by default; another address only with authentication set (AIZK_DASHBOARD_TOKEN, or AIZK_DASHBOARD_USER and AIZK_DASHBOARD_PASSWORD), else exit 2. Pages update by server-sent events, which read the database every AIZK_DASHBOARD_INTERVAL_SECONDS only while a browser is connected. Actions (requeue, discard, pause, resume) are same-origin POSTs with a CSRF token, each logged as one event line on stdout (JSON with --json); --read-only turns them off. Runs until SIGINT or SIGTERM. See docs/dashboard.md.'
  static override examples = [
    { command: '<%= config.bin %> dashboard', description: 'Serve on http://127.0.0.1:8474/ (AIZK_DASHBOARD_PORT).' },
    { command: '<%= config.bin %> dashboard --port 0 --read-only', description: 'Any free port, no actions.' },
    { command: '<%= config.bin %> dashboard --json', description: 'Event lines as JSON (listening, each action, stopped) for a log collector.' },
    {
      command: 'AIZK_DASHBOARD_TOKEN=$(openssl rand -hex 24) <%= config.bin %> dashboard --host 0.0.0.0',
      description: 'Beyond loopback: open the printed address with ?token=... once.',
    },
  ]
  static override flags = {
    host: Flags.string({ description: 'Address to listen on (another than loopback needs authentication).', default: '127.0.0.1' }),
    port: wholeFlag({ description: 'Port to listen on, 0 for any free one (default AIZK_DASHBOARD_PORT, 8474).', example: '--port 8080', min: 0, max: 65535 }),
    'read-only': Flags.boolean({ description: 'Show everything, change nothing: every action is refused.', default: false }),
  }

  // --json streams event lines as it runs (like `aizk worker --json`); run() returns no document.
  async run(): Promise<void> {
    const { flags } = await this.parse(Dashboard)
    const settings = await this.settings()
    const auth = { token: settings.dashboardToken, user: settings.dashboardUser, password: settings.dashboardPassword }
    listenHost(flags.host)
    checkBind(flags.host, auth)
    const db = await this.database({ poolSize: 4, applicationName: 'aizk dashboard' })
    const json = this.jsonEnabled()
    const log = (event: string, fields: Record<string, unknown>) => process.stdout.write(`${eventLine(new Date(), event, fields, json)}\n`)
    const running = await startDashboard(
      { pool: db.pool, settings, readOnly: flags['read-only'], csrf: newCsrfToken(), log },
      { host: flags.host, port: flags.port ?? settings.dashboardPort, auth },
    )
    log('dashboard:listening', { url: running.url, readOnly: flags['read-only'], auth: auth.token ? 'token' : auth.user ? 'basic' : 'none' })
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', resolve)
      process.once('SIGINT', resolve)
    })
    await running.close()
    log('dashboard:stopped', { signal })
    await db.close()
  }
}

/** One event line: JSON, or `ts event key=value ...` for a person reading the terminal. */
export function eventLine(at: Date, event: string, fields: Record<string, unknown>, json: boolean): string {
  if (json) return JSON.stringify({ ts: at.toISOString(), event, ...fields })
  const parts = Object.entries(fields).map(
    ([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`,
  )
  return [at.toISOString(), event, ...parts].join(' ')
}
