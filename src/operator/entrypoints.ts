/** Resolve an entrypoint named on the command line against the registry, with suggestions. */
import { UsageError } from '../errors.js'
import type { JobClass } from '../jobs/queue-job.js'
import { jobRegistry } from '../jobs/registry.js'
import { suggest } from './did-you-mean.js'

export function unknownEntrypointError(name: string, known: string[], extraHint?: string): UsageError {
  const near = suggest(name, known)
  const didYouMean = near.length ? `did you mean ${near.map((n) => `"${n}"`).join(', ')}? ` : ''
  return new UsageError(
    `unknown entrypoint "${name}"`,
    `${didYouMean}\`aizk jobs types\` lists the registered entrypoints${extraHint ? `; ${extraHint}` : ''}`,
    { entrypoint: name, suggestions: near },
  )
}

/** The registered job for an entrypoint, or a usage error naming the nearest ones. */
export function resolveJob(name: string, extraHint?: string): JobClass {
  const job = jobRegistry.get(name)
  if (!job) throw unknownEntrypointError(name, jobRegistry.entrypoints(), extraHint)
  return job
}

const ENTRYPOINT = /^[a-z][a-z0-9_]{0,62}$/

/** An entrypoint name's shape, for ones the registry may not know (`--force`, filters). */
export function checkEntrypointName(name: string): void {
  if (!ENTRYPOINT.test(name)) {
    throw new UsageError(`"${name}" is not an entrypoint name`, 'entrypoints are lower-case letters, digits and _ (at most 63), e.g. aizk_usage_event')
  }
}
