/**
 * The base every command extends: oclif's `--json` (a command's `run()` returns its document and
 * oclif prints it), settings loaded once, the database opened on demand, and the one place that
 * renders errors and turns them into exit codes (docs/architecture.md#errors-and-exit-codes).
 */
import { Command, Errors, Flags, ux } from '@oclif/core'
import type { Database, OpenOptions } from '../db/database.js'
import { AizkError, ExitCode } from '../errors.js'
import type { ParseOptions, Settings } from '../settings.js'
import { loadCliSettings } from './load-settings.js'

export abstract class AizkCommand extends Command {
  static override enableJsonFlag = true
  // Replaces oclif's own `json` flag (same name): aizk's wording, listed with the command's flags.
  static override baseFlags = {
    json: Flags.boolean({ description: 'Print one JSON document instead of text.', default: false }),
  }

  private openDatabases: Database[] = []
  private settingsCache?: Settings

  /**
   * A line on stderr whatever the output mode: oclif silences `logToStderr` under --json, but
   * stdout alone holds the document, so warnings and the embedded server's notes still show.
   */
  protected note(line: string): void {
    process.stderr.write(`${line}\n`)
  }

  /** Job modules register their settings first, so settings are validated all together. The first call's overrides win. */
  protected async settings(opts: Omit<ParseOptions, 'registry'> = {}): Promise<Settings> {
    if (this.settingsCache) return this.settingsCache
    const { settings, unknown } = await loadCliSettings(process.env, opts)
    this.settingsCache = settings
    for (const name of unknown) {
      const chalk = await loadChalk()
      this.note(chalk.yellow(`aizk: warning: ${name} is not an aizk setting (see \`aizk settings\`)`))
    }
    return this.settingsCache
  }

  protected async database(opts: OpenOptions = {}): Promise<Database> {
    const settings = await this.settings()
    // pg and the embedded server's code load only in commands that open the database.
    const { loadPg } = await import('../db/load-pg.js')
    await loadPg()
    const { openDatabase } = await import('../db/database.js')
    const db = await openDatabase(settings, { log: (line) => this.note(line), ...opts })
    this.openDatabases.push(db)
    return db
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    for (const db of this.openDatabases.splice(0)) await db.close().catch(() => {})
    return super.finally(err)
  }

  /**
   * oclif tokenises the document to colour it by the theme's `json` colours: about 20 times the
   * cost of JSON.stringify (seconds for a requeue of 100,000 jobs). Without such a theme the bytes
   * are the same, so they are written straight.
   */
  protected override logJson(json: unknown): void {
    if (this.config.theme?.json) super.logJson(json)
    else ux.stdout(JSON.stringify(json, null, 2))
  }

  /** The error document of --json: `{ "error": { code, exitCode, message, hint, details } }`. */
  protected override toErrorJson(err: unknown): { error: ErrorReport } {
    return { error: this.report(err as Error) }
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    const databases = this.openDatabases.splice(0)
    // The error may be the link itself: a short goodbye, then the sockets are destroyed.
    for (const db of databases) await db.close(1000).catch(() => {})
    const report = this.report(await this.asDatabaseError(err, databases))
    if (this.jsonEnabled()) {
      // The report as text shows it: a link lost mid-command is exit 4 in the document too.
      this.logJson({ error: report })
    } else {
      const chalk = await loadChalk()
      process.stderr.write(`${chalk.red('error:')} ${report.message}\n`)
      if (report.hint) process.stderr.write(`${chalk.dim('hint:')} ${report.hint}\n`)
    }
    this.exit(report.exitCode)
  }

  /**
   * A link that dropped or went silent mid-command (a round trip past AIZK_DB_DEADLINE_SECONDS)
   * is the database's failure, exit 4, not a bug.
   */
  private async asDatabaseError(err: Error, databases: Database[]): Promise<Error> {
    if (err instanceof AizkError || databases.length === 0) return err
    const { connectionError, isConnectionError } = await import('../db/connect.js')
    return isConnectionError(err) ? connectionError(err, databases[0].target.url) : err
  }

  private report(err: Error & { oclif?: { exit?: number } }): ErrorReport {
    if (err instanceof AizkError) {
      // A flag builder's error (src/cli/flags.ts) comes wrapped by oclif's parser: keep its own words.
      const message = err.message.replace(/^Parsing --\S+ \n\t/, '').replace(/\nSee more help with --help$/, '')
      return { code: err.code, exitCode: err.exitCode, message, hint: err.hint ?? null, details: err.details ?? null }
    }
    if (err.oclif?.exit !== undefined) {
      // oclif's own parse errors: unknown flag, missing argument, bad option value.
      const hint = `see \`aizk ${this.id?.replaceAll(':', ' ') ?? ''} --help\``
      return { code: 'usage', exitCode: ExitCode.usage, message: parseErrorMessage(err.message), hint, details: null }
    }
    const message = process.env.AIZK_DEBUG ? (err.stack ?? err.message) : err.message
    return { code: 'internal', exitCode: ExitCode.internal, message, hint: null, details: null }
  }
}

interface ErrorReport {
  code: string
  exitCode: number
  message: string
  hint: string | null
  details: unknown
}

/** chalk only when something is printed in colour: a command that succeeds never loads it. */
async function loadChalk() {
  return (await import('chalk')).default
}

/**
 * oclif's parse error on one line with its reason: "Parsing --priority" is followed by what was
 * wrong ("Expected an integer but received: abc"), "Missing 1 required arg:" by the argument.
 * oclif's own "See more help" line is dropped: the hint says where help is.
 */
export function parseErrorMessage(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^See more help/i.test(l))
  if (lines.length <= 1) return lines[0] ?? message
  const [head, ...rest] = lines
  return `${head.replace(/:$/, '')}: ${rest.join('; ')}`
}
