/**
 * Loads the job modules: aizk's own inventory and the application's extra modules named in
 * AIZK_WORKER_JOB_MODULES. Importing a module declares its jobs; a scheduled job's declaration
 * registers its `<name>Cron` / `<name>Enabled` settings, so this runs before settings are parsed.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError } from '../errors.js'
import { jobModulePaths } from '../settings.js'
import { jobRegistry } from './registry.js'

let loaded: Promise<void> | undefined

export function loadJobModules(): Promise<void> {
  loaded ??= (async () => {
    await import('./inventory/index.js')
    for (const spec of jobModulePaths()) {
      // A file that exists is a path (relative to the working folder); anything else a package.
      const target = spec.startsWith('.') || spec.startsWith('/') || existsSync(spec) ? pathToFileURL(path.resolve(spec)).href : spec
      let mod: Record<string, unknown>
      try {
        mod = await import(target)
      } catch (err) {
        throw new ConfigError([
          `AIZK_WORKER_JOB_MODULES: cannot load "${spec}" (${(err as Error).message}); expected paths of built .js modules or package names, separated by commas`,
        ])
      }
      // Discovered, not listed: every concrete job class the module exports is bound.
      jobRegistry.registerModule(mod)
    }
  })()
  return loaded
}
