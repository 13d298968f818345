import { Args, Flags } from '@oclif/core'
import { AizkCommand } from '../cli/base-command.js'
import { confirmOrRequireYes } from '../cli/confirm.js'
import { wholeFlag } from '../cli/flags.js'
import { UsageError } from '../errors.js'
import { formatBytes } from '../operator/format.js'
import { type DurabilityState, parseDurabilityLevel, readDurability, type SettableLevel, setDurability, tablesToSwitch } from '../queue/durability.js'
import { MAX_TIMER_SECONDS } from '../settings-types.js'

const CONSEQUENCES: Record<SettableLevel, string> = {
  balanced:
    "an unlogged table is emptied when the server crashes or fails over and is not sent to replicas: the job history (`aizk jobs show`, held jobs' reasons, `enqueue --wait` on a job that had already finished) would be lost; queued, running and held jobs are not",
  durable: 'each table is written whole to the WAL once',
}

export default class Durability extends AizkCommand {
  static override summary = "Show or set how much of the queue a server crash keeps (PgQueuer's durability levels)."
  static override description =
    "Without a level, prints the persistence (LOGGED or UNLOGGED) of PgQueuer's four tables and the level they amount to. With one, switches to it in one transaction, as PgQueuer's `pgq durability` does: durable (every table logged, as installed) or balanced (pgqueuer_log and pgqueuer_statistics unlogged: each finished job's log row costs no WAL, about 9% less CPU per job in a no-op drain, and a crash empties the history). volatile is refused: it would make the queue itself unlogged, and a crash would keep a write and lose its job. Each switched table is rewritten under an ACCESS EXCLUSIVE lock, during which workers cannot finish jobs; the lock is waited for at most --lock-timeout seconds (exit 6, nothing changed). docs/deployment.md#durability."
  static override examples = [
    { command: '<%= config.bin %> durability', description: 'Show each table and the level.' },
    { command: '<%= config.bin %> durability balanced', description: 'Unlog the log and the statistics (asks first on a terminal).' },
    { command: '<%= config.bin %> durability balanced --dry-run', description: 'Print the statements the switch would run; change nothing.' },
    {
      command: '<%= config.bin %> durability durable --yes --lock-timeout 30',
      description: 'Back to every table logged, from a script: wait at most 30 s for the lock.',
    },
    { command: '<%= config.bin %> durability --json', description: 'Print {"level", "tables": [...]} as JSON.' },
  ]
  static override args = {
    level: Args.string({ description: 'durable or balanced; leave out to show the current level.', required: false }),
  }
  static override flags = {
    'dry-run': Flags.boolean({ description: 'Print the statements the switch would run; change nothing.', default: false }),
    yes: Flags.boolean({ char: 'y', description: 'Do not ask before the switch (needed without a terminal).', default: false }),
    'lock-timeout': wholeFlag({
      description: 'Seconds the switch waits for its lock before giving up with exit 6 (default 10).',
      example: '--lock-timeout 30',
      min: 0,
      max: MAX_TIMER_SECONDS,
      default: 10,
    }),
  }

  async run() {
    const { args, flags } = await this.parse(Durability)
    const level = args.level === undefined ? undefined : parseDurabilityLevel(args.level)
    const db = await this.database({ deadline: false })
    const json = this.jsonEnabled()
    if (!level) {
      const state = await readDurability(db.pool)
      if (!json) this.printState(state)
      return state
    }
    const switching = tablesToSwitch(await readDurability(db.pool), level)
    if (switching.length > 0 && !flags['dry-run']) {
      const sizes = switching.map((t) => `${t.table} (${formatBytes(t.totalBytes)})`).join(', ')
      const what = `switching to ${level} rewrites ${sizes} under an ACCESS EXCLUSIVE lock, and ${CONSEQUENCES[level]}`
      if (!json) this.note(`warning: ${what}`)
      if (!(await confirmOrRequireYes(`Switch the queue to ${level} now?`, { yes: flags.yes, json, what: `durability ${level}` }))) {
        throw new UsageError(`durability ${level}: cancelled; nothing was changed`, 'run again and answer y')
      }
    }
    const change = await setDurability(db.pool, level, { lockTimeoutMs: flags['lock-timeout'] * 1000, dryRun: flags['dry-run'] })
    const doc = { dryRun: flags['dry-run'], level, from: change.before.level, statements: change.statements, tables: change.after.tables, ms: change.ms }
    if (json) return doc
    if (change.statements.length === 0) this.log(`the queue is already ${level}: nothing to do`)
    else if (flags['dry-run']) for (const s of change.statements) this.log(`${s};`)
    else
      this.log(
        `durability ${change.before.level} -> ${change.after.level} in ${(change.ms / 1000).toFixed(1)}s (${change.statements.length} table(s) rewritten)`,
      )
    return doc
  }

  private printState(state: DurabilityState): void {
    this.log(`durability: ${state.level}`)
    for (const t of state.tables) this.log(`  ${t.table.padEnd(20)} ${t.persistence.padEnd(9)} ${formatBytes(t.totalBytes)}`)
  }
}
