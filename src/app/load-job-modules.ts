/**
 * Loads the job modules: aizk's own inventory and the application's extra modules (the paths of
 * AIZK_WORKER_JOB_MODULES). Importing a module declares its jobs in the process registry, which
 * then holds their settings (a scheduled job's `<name>Cron` / `<name>Enabled`), so this runs
 * before settings are parsed with that registry.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError } from '../errors.js'
import { jobRegistry } from '../jobs/registry.js'

let loaded: Promise<void> | undefined

/** Once per process: later calls return the first load (its `paths` win). */
export function loadJobModules(paths: readonly string[] = []): Promise<void> {
  loaded ??= (async () => {
    await import('../jobs/inventory/index.js')
    for (const spec of paths) {
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
