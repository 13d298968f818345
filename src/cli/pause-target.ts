/** The entrypoint `aizk pause` / `aizk resume` name: a registered one, or any well-formed name with --force. */

import { jobRegistry } from '../jobs/registry.js'
import { checkEntrypointName, resolveJob } from '../operator/entrypoints.js'

export function pauseTarget(name: string, force: boolean): string {
  checkEntrypointName(name)
  if (!force && !jobRegistry.get(name)) resolveJob(name, 'pass --force for an entrypoint this process does not know (AIZK_WORKER_JOB_MODULES)')
  return name
}
