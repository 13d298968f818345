/**
 * The CLI's one way to settings (docs/architecture.md#settings): load the job modules the
 * environment names, so the registry holds their settings, then parse the environment and the
 * command's overrides (worker flags) in one pass with that registry.
 */
import { loadJobModules } from '../app/load-job-modules.js'
import { jobRegistry } from '../jobs/registry.js'
import { jobModulePaths, type ParseOptions, parseSettings, type Settings, unknownSettingVariables } from '../settings.js'

export interface CliSettings {
  settings: Settings
  /** AIZK_ variables that are no setting (typos), for a warning. */
  unknown: string[]
}

export async function loadCliSettings(env: NodeJS.ProcessEnv, opts: Omit<ParseOptions, 'registry'> = {}): Promise<CliSettings> {
  await loadJobModules(jobModulePaths(env))
  const settings = parseSettings(env, { ...opts, registry: jobRegistry })
  return { settings, unknown: unknownSettingVariables(env, jobRegistry) }
}
