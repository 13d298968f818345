export { type GrowthGateOptions, type GrowthGateResult, recordedFactCount, runIfGrown } from './growth-gate.js'
export { scopeRoster } from './roster.js'
export { compareScopes, isUuid, normalizeScopes, type ScopeSet, sameScopes, scopeKey } from './scope-set.js'
export { type IdentitySettings, OwnerAccessError, User } from './user.js'
