/**
 * The relevance floor chosen leave-one-package-out: for each package, the floor that serves the
 * other packages' questions best, applied to that package's (docs/memory-graph.md, "The recall
 * evaluation").
 */
export interface Asked {
  package: string
  answerable: boolean
  /** The best item's support. */
  support: number
  /** Answerable: every needed fact within the first five items. */
  hit: boolean
}

const GRID = Array.from({ length: 41 }, (_, i) => i / 40)

/** Right is a hit above the floor for an answerable question, nothing for an unanswerable one. */
export const right = (a: Asked, floor: number) => (a.answerable ? a.hit && a.support >= floor : a.support < floor)

/** The floor whose answers are right most often, answerable and unanswerable weighed equally. */
export function bestFloor(asked: Asked[]): number {
  const score = (floor: number) => {
    const part = (answerable: boolean) => {
      const these = asked.filter((a) => a.answerable === answerable)
      return these.length ? these.filter((a) => right(a, floor)).length / these.length : 0
    }
    return part(true) + part(false)
  }
  // The middle of the best plateau: the floor least sensitive to one question more or less.
  const top = Math.max(...GRID.map(score))
  const plateau = GRID.filter((f) => score(f) === top)
  return plateau[Math.floor(plateau.length / 2)]
}

/** Each package's floor, chosen without it. */
export function floorsLeavingOneOut(asked: Asked[]): Map<string, number> {
  const packages = [...new Set(asked.map((a) => a.package))]
  return new Map(packages.map((p) => [p, bestFloor(asked.filter((a) => a.package !== p))]))
}
