/** Larger runs first: what somebody waits on outranks maintenance nobody waits on. */
export const JobPriority = {
  maintenance: 10,
  chunk: 50,
  artifact: 75,
} as const
