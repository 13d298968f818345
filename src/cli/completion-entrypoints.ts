/**
 * An oclif `init` hook for shell completion. @oclif/plugin-autocomplete writes its scripts from
 * the command manifest, where a flag's `options` become the values zsh offers. Only while an
 * `autocomplete` command runs, this hook fills the `--entrypoint` flags' options with the
 * entrypoints registered now (aizk's own and those of AIZK_WORKER_JOB_MODULES), so the script
 * completes them. The flags themselves stay free text: parsing loads the command class, which
 * this never touches, so an entrypoint only a Python worker knows is still accepted.
 */
import type { Hook } from '@oclif/core'

const hook: Hook.Init = async ({ id, config }) => {
  if (!id?.startsWith('autocomplete')) return
  const { loadJobModules } = await import('../app/load-job-modules.js')
  const { jobRegistry } = await import('../jobs/registry.js')
  const { jobModulePaths } = await import('../settings.js')
  try {
    await loadJobModules(jobModulePaths(process.env))
  } catch {
    // A broken job module leaves aizk's own entrypoints to complete.
  }
  const entrypoints = jobRegistry.entrypoints().sort()
  for (const plugin of config.getPluginsList()) {
    for (const command of plugin.commands) {
      const flag = command.flags?.entrypoint as { type?: string; options?: string[] } | undefined
      if (flag?.type === 'option') flag.options = entrypoints
    }
  }
}

export default hook
