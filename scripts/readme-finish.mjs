#!/usr/bin/env node
// Finishes `npm run readme` (after `oclif readme` wrote the command reference): regenerates the
// configuration table from the settings schema (dist/) between <!-- settings --> and
// <!-- settingsstop -->, and nests the command headings under "Command reference".
import { readFileSync, writeFileSync } from 'node:fs'

const { loadJobModules } = await import('../dist/jobs/load.js')
const { describeSettings, parseSettings } = await import('../dist/settings.js')
await loadJobModules()
const rows = describeSettings(parseSettings({}).settings)
const show = (v) => (v === null ? '' : Array.isArray(v) ? (v.length ? v.join(',') : '') : `\`${v}\``)
const table = [
  '| variable | default | meaning |',
  '|---|---|---|',
  ...rows.map((r) => `| \`${r.variable}\` | ${r.key === 'queueConcurrentTasks' ? '4 x batch size' : show(r.default)} | ${r.description.replaceAll('|', '\\|')} |`),
].join('\n')
const readme = readFileSync('README.md', 'utf8').replace(
  /<!-- commands -->[\s\S]*<!-- commandsstop -->/,
  (block) => block.replace(/^## `aizk /gm, '### `aizk '),
)
const start = readme.indexOf('<!-- settings -->')
const stop = readme.indexOf('<!-- settingsstop -->')
if (start < 0 || stop < 0) throw new Error('README.md lacks the <!-- settings --> markers')
writeFileSync('README.md', `${readme.slice(0, start)}<!-- settings -->\n${table}\n${readme.slice(stop)}`)
console.log(`wrote ${rows.length} settings and the command reference into README.md`)
