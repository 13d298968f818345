/** The --scope flag of the graph commands: every value a UUID, else a usage error naming the bad ones. */
import { Flags } from '@oclif/core'
import { UsageError } from '../errors.js'
import { isUuid } from '../scope/scope-set.js'

export const scopeFlag = Flags.string({
  char: 's',
  description: 'A scope uuid of the set (repeatable; the set is all of them).',
  multiple: true,
  required: true,
})

export function checkScopes(scopes: readonly string[]): void {
  const bad = scopes.filter((s) => !isUuid(s.trim().toLowerCase()))
  if (bad.length) {
    throw new UsageError(`not a uuid: ${bad.map((b) => `"${b}"`).join(', ')}`, 'pass each scope of the set as --scope UUID (see `aizk roster`)', {
      invalid: bad,
    })
  }
}
