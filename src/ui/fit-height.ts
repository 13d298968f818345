/**
 * Views that fit the terminal: ink redraws in place only while its output is shorter than the
 * terminal; one line taller and it clears the screen and prints the whole frame, so the top
 * (the header) scrolls off. Views give their lists a share of the rows left under the header.
 */

/** The terminal a view draws on; unset (a test, a pipe) = no limit. */
export interface ScreenSize {
  rows: number
  columns: number
}

/** The lines a frame may take on `size`: one fewer than the terminal's rows, so ink never has to clear it. */
export function frameBudget(size: ScreenSize | undefined): number {
  return size && size.rows > 0 ? size.rows - 1 : Number.POSITIVE_INFINITY
}

/**
 * Share `budget` lines among lists that want `wants[i]` lines: one line at a time to each list
 * in turn, so a long list cannot starve the others and none gets more than it wants.
 */
export function shareRows(budget: number, wants: readonly number[]): number[] {
  const got = wants.map(() => 0)
  let left = Math.max(0, budget)
  for (let more = true; left > 0 && more; ) {
    more = false
    for (let i = 0; i < wants.length && left > 0; i++) {
      if (got[i] < wants[i]) {
        got[i]++
        left--
        more = true
      }
    }
  }
  return got
}
