#!/usr/bin/env node
// Finishes `npm run readme`. `oclif readme --readme-path docs/commands.md` has written the command
// reference into docs/commands.md; this writes docs/settings.md (every setting, group by group)
// and the README's first-run table between <!-- settings --> and <!-- settingsstop --> from the
// features' settings declarations (dist/), and checks that the command reference landed in
// docs/commands.md.
import { readFileSync, writeFileSync } from 'node:fs'

const { firstRunTable, referenceRows, settingsReference } = await import('../dist/app/settings-reference.js')
const rows = await referenceRows()
writeFileSync('docs/settings.md', settingsReference(rows))

const readme = readFileSync('README.md', 'utf8')
const start = readme.indexOf('<!-- settings -->')
const stop = readme.indexOf('<!-- settingsstop -->')
if (start < 0 || stop < 0) throw new Error('README.md lacks the <!-- settings --> markers')
writeFileSync('README.md', `${readme.slice(0, start)}<!-- settings -->\n${firstRunTable(rows)}\n${readme.slice(stop)}`)

const commands = readFileSync('docs/commands.md', 'utf8')
const reference = /<!-- commands -->([\s\S]*)<!-- commandsstop -->/.exec(commands)
if (!reference || !reference[1].includes('## `aizk ')) throw new Error('docs/commands.md lacks the generated command reference')
console.log(`wrote ${rows.length} settings into docs/settings.md, ${rows.filter((r) => r.firstRun).length} into README.md; the command reference is in docs/commands.md`)
