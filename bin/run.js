#!/usr/bin/env node
// The only place that decides the process's exit code.
// `aizk --version` is answered here, in oclif's own format, without loading oclif (most of a
// second on a small machine), and with --json as one JSON document, as every command's --json
// is; everything else goes through oclif.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const argv = process.argv.slice(2)
const versionAsked = argv.includes('--version') && argv.every((a) => a === '--version' || a === '--json')
if (versionAsked) {
  const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const architecture = `${process.platform}-${process.arch}`
  if (argv.includes('--json')) {
    const doc = { name, version, cliVersion: `${name}/${version}`, architecture, nodeVersion: `node-${process.version}` }
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`)
  } else {
    process.stdout.write(`${name}/${version} ${architecture} node-${process.version}\n`)
  }
} else {
  // oclif checks Node against its own `engines` with semver (about 50 modules loaded for every
  // command); npm already enforces aizk's stricter range, so that check is skipped.
  const engineCheck = process.env.OCLIF_DISABLE_ENGINE_WARNING
  process.env.OCLIF_DISABLE_ENGINE_WARNING = 'true'
  const { execute } = await import('@oclif/core')
  if (engineCheck === undefined) delete process.env.OCLIF_DISABLE_ENGINE_WARNING
  else process.env.OCLIF_DISABLE_ENGINE_WARNING = engineCheck
  // aizk has no user plugins. Without userPlugins: false oclif reads $AIZK_DATA_DIR/package.json
  // at start (it takes AIZK_DATA_DIR, the embedded server's folder, as its own data folder) and
  // prints a Node warning when that is no folder; the setting's own check reports it (exit 3).
  await execute({ loadOptions: { root: fileURLToPath(import.meta.url), userPlugins: false } })
}
