/**
 * The settings as operators read them, written from the features' declarations: docs/settings.md
 * (every setting, group by group) and the README's first-run table. `npm run readme` writes both
 * (scripts/readme-finish.mjs); test/unit/settings.test.ts fails when either is stale.
 */
import { jobRegistry } from '../jobs/registry.js'
import { describeSettings, parseSettings, SCHEDULES_GROUP, SETTING_GROUPS, type SettingRow } from '../settings.js'
import { loadJobModules } from './load-job-modules.js'

/** Every setting with its default, the built-in jobs' pairs included, in key order. */
export async function referenceRows(): Promise<SettingRow[]> {
  await loadJobModules()
  return describeSettings(parseSettings({}, { registry: jobRegistry }), jobRegistry)
}

/** The groups in the order operators read them, each with its rows; empty groups left out. */
export function groupedRows(rows: readonly SettingRow[]): { name: string; title: string; rows: SettingRow[] }[] {
  return [...SETTING_GROUPS, SCHEDULES_GROUP]
    .map((g) => ({ name: g.name, title: g.title, rows: rows.filter((r) => r.group === g.name) }))
    .filter((g) => g.rows.length > 0)
}

const show = (v: unknown) => (v === null ? '' : Array.isArray(v) ? v.join(',') : `\`${v}\``)
const defaultOf = (r: SettingRow) => (r.key === 'queueConcurrentTasks' ? '4 x batch size' : show(r.default))

function table(rows: readonly SettingRow[]): string {
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows.map((r) => `| \`${r.variable}\` | ${defaultOf(r)} | ${r.description.replaceAll('|', '\\|')} |`),
  ].join('\n')
}

const INTRO = `# Settings

Every setting is an \`AIZK_*\` environment variable, read once and validated together: a bad
value exits 3 with one line per problem naming the variable (\`aizk settings\` prints the
effective values group by group, secrets masked). Each scheduled pass adds its own
\`<NAME>_CRON\` and \`<NAME>_ENABLED\` pair, and so do the passes of modules named in
\`AIZK_WORKER_JOB_MODULES\`. Booleans take \`true/false\`, \`1/0\`, \`yes/no\`, \`on/off\`; anything
else is an error. Numbers are checked against their natural range: shares and similarities 0-1,
waits that are timers at most 2,147,483 s (24.8 days, the longest a Node timer waits), days at
most 36,500, whole numbers at most 2,147,483,647 (PostgreSQL's \`int\`) unless the table says
less; a folder setting may name a folder that does not exist yet (created on first use), never a
file. Settings that bound each other are clamped, not refused: a chunk overlap over half a chunk
counts as half, a first retry delay over the largest as the largest.

Each feature declares its settings next to its code (\`src/<feature>/settings.ts\`,
[architecture.md](architecture.md#settings)); this page is generated from those declarations
(\`npm run readme\`) and a test fails when it is stale.`

/** docs/settings.md. */
export function settingsReference(rows: readonly SettingRow[]): string {
  const groups = groupedRows(rows)
  const index = groups.map((g) => `- [${g.title}](#${anchor(g.title)}) (${g.rows.length})`).join('\n')
  const sections = groups.map((g) => `## ${g.title}\n\n${table(g.rows)}`).join('\n\n')
  return `${INTRO}\n\n${index}\n\n${sections}\n`
}

/** The README's table: the settings a first run needs. */
export function firstRunTable(rows: readonly SettingRow[]): string {
  return table(rows.filter((r) => r.firstRun))
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}
