import { Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { describeUrl } from '../db/connect.js'
import { migrate } from '../db/migrate.js'
import { compareSchema, describeMismatch } from '../db/schema-check.js'
import { writeEnqueueLimit } from '../db/sql/enqueue-limit.js'
import { SchemaMismatchError } from '../errors.js'

export default class Install extends AizkCommand {
  static override summary = 'Install or upgrade the aizk schema (PgQueuer tables, dedupe index, app role).'
  static override description =
    'Applies the numbered migrations that are not yet recorded, then every function, trigger and policy definition whose file changed, in one transaction under an advisory lock (docs/schema.md). A migration recorded as applied whose file has changed stops install with exit 4. --check changes nothing and exits 0 when the database holds exactly the migrations and definitions of this version, 4 naming what differs when not (not installed, behind, or ahead: installed by a newer aizk). A database where PgQueuer already installed its tables is adopted: aizk adds what it needs and never drops or rewrites PgQueuer objects. When PgQueuer left a dedupe key on more than one queued, picked or held job, install lists them and exits 6 having changed nothing; --resolve-duplicate-keys resolves them.'
  static override examples = [
    { command: '<%= config.bin %> install', description: 'Install on the embedded server (or AIZK_DATABASE_URL).' },
    { command: '<%= config.bin %> install --dry-run', description: 'Print the migrations and definitions that would run; change nothing.' },
    { command: '<%= config.bin %> install --json', description: 'Report what was applied as JSON.' },
    {
      command: '<%= config.bin %> install --check',
      description: "Exit 0 when the database matches this version's schema, 4 with what differs (a deploy pipeline's gate); change nothing.",
    },
    {
      command: '<%= config.bin %> install --resolve-duplicate-keys',
      description:
        'Adopt a PgQueuer database whose dedupe keys are held twice: keep the live (else newest held) job of each key, rename the key of the others.',
    },
  ]
  static override flags = {
    'dry-run': Flags.boolean({ description: 'Print the plan without changing anything.', default: false }),
    check: Flags.boolean({
      description: "Change nothing; exit 0 when the database holds exactly this version's migrations and definitions, 4 saying what differs when not.",
      default: false,
      exclusive: ['dry-run', 'resolve-duplicate-keys'],
    }),
    'resolve-duplicate-keys': Flags.boolean({
      description: 'On adoption, resolve dedupe keys held by several jobs: keep the live (else newest held) job, rename the others to <key>#dup-of-<kept id>.',
      default: false,
    }),
  }

  async run() {
    const { flags } = await this.parse(Install)
    const settings = await this.settings()
    if (flags.check) return this.check(settings.appRole)
    const db = await this.database({ requireSchema: false, deadline: false, session: true })
    const client = await db.pool.connect()
    let result: Awaited<ReturnType<typeof migrate>>
    let limitChanged = false
    try {
      result = await migrate(client, { appRole: settings.appRole, dryRun: flags['dry-run'], resolveDuplicateKeys: flags['resolve-duplicate-keys'] })
      if (!flags['dry-run']) limitChanged = await writeEnqueueLimit(client, settings.enqueueMaxPayloadBytes)
    } finally {
      client.release()
    }
    const where = describeUrl(db.target.url)
    const report = {
      database: where,
      embedded: db.target.embedded,
      dryRun: flags['dry-run'],
      adopted: result.adopted,
      applied: result.applied,
      definitions: result.definitions,
      version: result.current,
      resolvedDuplicates: result.resolvedDuplicates,
    }
    if (this.jsonEnabled()) return report
    if (result.adopted) this.log(`adopting the PgQueuer tables found in ${where}`)
    if (limitChanged) this.log(`the enqueue door accepts payloads up to ${settings.enqueueMaxPayloadBytes} bytes (AIZK_ENQUEUE_MAX_PAYLOAD_BYTES)`)
    for (const d of result.resolvedDuplicates) this.log(`job ${d.id}: dedupe key ${d.dedupeKey} is kept by job ${d.keptJob}; renamed to ${d.newDedupeKey}`)
    if (result.applied.length === 0 && result.definitions.length === 0) {
      this.log(`schema is up to date at version ${result.current} in ${where}: nothing to do`)
      return report
    }
    const verb = flags['dry-run'] ? 'would apply' : 'applied'
    for (const m of result.applied) this.log(`${verb} ${m.name}${flags['dry-run'] ? '' : ` (${m.ms} ms)`}`)
    if (flags['dry-run']) for (const d of result.definitions) this.log(`${verb} ${d}`)
    else if (result.definitions.length) this.log(`${verb} ${result.definitions.length} function, trigger and policy definitions`)
    if (!flags['dry-run']) this.log(`schema is at version ${result.current} in ${where}`)
    return report
  }

  private async check(appRole: string) {
    const db = await this.database({ requireSchema: false, applicationName: 'aizk install --check' })
    const client = await db.pool.connect()
    const comparison = await compareSchema(client, { appRole }).finally(() => client.release())
    const database = describeUrl(db.target.url)
    if (!comparison.matches) {
      const hint =
        comparison.state === 'ahead'
          ? "a newer aizk installed this schema: deploy that version (this one's workers still run on it for one release, docs/schema.md#rolling-upgrades)"
          : 'run `aizk install` with this version before starting its workers (docs/deployment.md#upgrading)'
      throw new SchemaMismatchError(`${describeMismatch(comparison).join('\n')}\nin ${database}`, hint, { database, ...comparison })
    }
    this.log(`schema matches this aizk at version ${comparison.version} in ${database}`)
    return { database, ...comparison }
  }
}
