/**
 * Loads the job modules: aizk's own inventory and the application's extra modules named in
 * AIZK_WORKER_JOB_MODULES. Importing a module declares its jobs; a scheduled job's declaration
 * registers its `<name>Cron` / `<name>Enabled` settings, so this runs before settings are parsed.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { UsageError } from '../errors.js'
import { jobModulePaths } from '../settings.js'

let loaded: Promise<void> | undefined

export function loadJobModules(): Promise<void> {
  loaded ??= (async () => {
    await import('./inventory/index.js')
    for (const spec of jobModulePaths()) {
      const target = spec.startsWith('.') || spec.startsWith('/') ? pathToFileURL(path.resolve(spec)).href : spec
      try {
        await import(target)
      } catch (err) {
        throw new UsageError(
          `cannot load job module "${spec}" named in AIZK_WORKER_JOB_MODULES: ${(err as Error).message}`,
          'give a path to a built .js module or an installed package name, separated by commas',
        )
      }
    }
  })()
  return loaded
}
