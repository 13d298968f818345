import { groupedRows } from '../app/settings-reference.js'
import { AizkCommand } from '../cli/base-command.js'
import { jobRegistry } from '../jobs/registry.js'
import { describeSettings } from '../settings.js'

export default class SettingsCommand extends AizkCommand {
  static override summary = 'Print the effective settings (AIZK_* variables) grouped by feature, secrets masked.'
  static override description = 'docs/settings.md describes every setting, group by group.'
  static override examples = [
    { command: '<%= config.bin %> settings', description: 'Every setting with its variable and value, group by group.' },
    { command: 'AIZK_QUEUE_BATCH_SIZE=abc <%= config.bin %> settings', description: 'Validate settings: exit 3 naming each bad variable.' },
    { command: '<%= config.bin %> settings --json', description: 'The same as JSON.' },
  ]

  async run() {
    await this.parse(SettingsCommand)
    const rows = describeSettings(await this.settings(), jobRegistry)
    const result = { settings: Object.fromEntries(rows.map((r) => [r.key, { variable: r.variable, value: r.value, default: r.default }])) }
    if (this.jsonEnabled()) return result
    const width = Math.max(...rows.map((r) => r.variable.length))
    for (const [i, group] of groupedRows(rows).entries()) {
      this.log(`${i > 0 ? '\n' : ''}${group.title}`)
      for (const r of group.rows) {
        const value = r.value === null ? '(unset)' : Array.isArray(r.value) ? r.value.join(',') || '(none)' : String(r.value)
        this.log(`  ${r.variable.padEnd(width)}  ${value}`)
      }
    }
    return result
  }
}
