/** The memory graph's settings: its maintenance passes (decay, dedup, profiles, communities, RAPTOR, insights) and extraction threads. */
import { intSetting, MAX_DAYS, numberSetting, settingsGroup } from '../settings-types.js'

export const graphSettings = settingsGroup({
  name: 'graph',
  title: 'Memory graph',
  settings: {
    graphExtractThreads: {
      schema: intSetting(undefined, { min: 1, max: 64 }),
      description: 'Worker threads for the built-in extractor (default: CPU cores, at most 4).',
    },
    decayHalfLifeDays: {
      schema: numberSetting(90, { min: 0.001, max: MAX_DAYS }),
      description: 'Half life of the decay pass: a claim weighs half as much this many days after it was last decayed.',
    },
    decayFloor: {
      schema: numberSetting(0.05, { min: 0, max: 1 }),
      description: 'Claims whose decayed weight (1 when new) falls below this are marked faded (kept, not deleted); 0-1.',
    },
    decayBatch: {
      schema: intSetting(20000, { min: 1 }),
      description: 'Claims the decay pass rewrites per transaction (short transactions, short locks).',
    },
    dedupSimilarity: {
      schema: numberSetting(0.8, { min: 0, max: 1 }),
      description: 'Trigram similarity (pg_trgm, 0-1) above which the dedup pass merges two entities of the same kind.',
    },
    dedupEmbeddingSimilarity: {
      schema: numberSetting(0.92, { min: 0, max: 1 }),
      description:
        'Cosine (0-1) of two names\' embeddings at which the dedup pass merges them, when AIZK_EMBEDDINGS_URL is set (docs/memory-graph.md, "Resolution").',
    },
    sessionIdleMinutes: {
      schema: numberSetting(30, { min: 0, max: MAX_DAYS * 24 * 60 }),
      description: 'A session idle this long is promoted into a document by the session promotion pass.',
    },
    profileClaims: { schema: intSetting(5, { min: 1, max: 100 }), description: 'Strongest claims an entity profile summarises.' },
    reportBatch: {
      schema: intSetting(20, { min: 1, max: 1000 }),
      description: 'With AIZK_LLM_URL set: profiles or communities taken per batch for a model-written summary; each batch commits before the next is taken.',
    },
    reportConcurrency: {
      schema: intSetting(4, { min: 1, max: 64 }),
      description: 'With AIZK_LLM_URL set: model requests in flight at once within a batch of profiles or community reports.',
    },
    communitiesGrowthThreshold: {
      schema: intSetting(50, { min: 0 }),
      description: 'The community pass rebuilds a scope set only when its claims grew by more than this since the last build (the growth gate).',
    },
    communitiesResolution: {
      schema: numberSetting(1, { min: 0.01 }),
      description: 'Louvain resolution: above 1 gives more, smaller communities; below 1 fewer, larger ones.',
    },
    raptorClusterSize: {
      schema: intSetting(8, { min: 2, max: 1000 }),
      description: 'RAPTOR: nodes per cluster (a cluster larger than this is split); a level this small or smaller ends the tree.',
    },
    insightTrendRatio: {
      schema: numberSetting(1.5, { min: 1 }),
      description: 'An entity whose live claim weight grew (or shrank) by this factor since the last insight pass is rising (or fading).',
    },
    insightMaxObjects: {
      schema: intSetting(4, { min: 2 }),
      description: 'A subject and predicate with more distinct live objects than this is a list, not a contradiction.',
    },
  },
})
