/** The --scope flag of the commands that read memory as one scope set, and its check. */
import { Flags } from '@oclif/core'
import { UsageError } from '../errors.js'
import { isUuid } from '../scope/scope-set.js'

export const scopeFlag = () =>
  Flags.string({ char: 's', description: 'A scope uuid of the set (repeatable; the set is all of them).', multiple: true, required: true })

/** The scopes as given, or a UsageError (exit 2) naming every one that is not a uuid. */
export function checkScopes(scopes: string[]): string[] {
  const bad = scopes.filter((s) => !isUuid(s.trim().toLowerCase()))
  if (bad.length) {
    throw new UsageError(`not a uuid: ${bad.map((b) => `"${b}"`).join(', ')}`, 'pass each scope of the set as --scope UUID (see `aizk roster`)', {
      invalid: bad,
    })
  }
  return scopes
}
