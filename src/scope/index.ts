export { compareScopes, isUuid, normalizeScopes, sameScopes, type ScopeSet, scopeKey } from './scope-set.js'
export { User, OwnerAccessError, type IdentitySettings } from './user.js'
export { scopeRoster } from './roster.js'
export { runIfGrown, recordedFactCount, type GrowthGateOptions, type GrowthGateResult } from './growth-gate.js'
