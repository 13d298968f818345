#!/usr/bin/env node
// Finishes `npm run readme`. `oclif readme --readme-path docs/commands.md` has written the command
// reference into docs/commands.md; this regenerates the README's configuration table from the
// settings schema (dist/) between <!-- settings --> and <!-- settingsstop -->, and checks that
// the command reference landed in docs/commands.md.
import { readFileSync, writeFileSync } from 'node:fs'

const { loadJobModules } = await import('../dist/app/load-job-modules.js')
const { jobRegistry } = await import('../dist/jobs/registry.js')
const { describeSettings, parseSettings } = await import('../dist/settings.js')
await loadJobModules()
const rows = describeSettings(parseSettings({}, { registry: jobRegistry }), jobRegistry)
const show = (v) => (v === null ? '' : Array.isArray(v) ? (v.length ? v.join(',') : '') : `\`${v}\``)
const table = [
  '| variable | default | meaning |',
  '|---|---|---|',
  ...rows.map((r) => `| \`${r.variable}\` | ${r.key === 'queueConcurrentTasks' ? '4 x batch size' : show(r.default)} | ${r.description.replaceAll('|', '\\|')} |`),
].join('\n')

const readme = readFileSync('README.md', 'utf8')
const start = readme.indexOf('<!-- settings -->')
const stop = readme.indexOf('<!-- settingsstop -->')
if (start < 0 || stop < 0) throw new Error('README.md lacks the <!-- settings --> markers')
writeFileSync('README.md', `${readme.slice(0, start)}<!-- settings -->\n${table}\n${readme.slice(stop)}`)

const commands = readFileSync('docs/commands.md', 'utf8')
const reference = /<!-- commands -->([\s\S]*)<!-- commandsstop -->/.exec(commands)
if (!reference || !reference[1].includes('## `aizk ')) throw new Error('docs/commands.md lacks the generated command reference')
console.log(`wrote ${rows.length} settings into README.md; the command reference is in docs/commands.md`)
