/**
 * The dashboard's keys. ink hands a burst of plain keys written at once (three Tab presses in
 * one read) to `useInput` as one string, so each character is decoded here on its own: every
 * key counts. Escape sequences (arrows, shift-tab, page keys) arrive one per call, already split
 * by ink. Tab and ←→ move between panes; ↑↓ (or k j) scroll the focused pane a row, PgUp PgDn
 * (or b space) a page, Home End (or g G) to its ends.
 */
export type DashboardAction = 'next' | 'previous' | 'quit' | 'up' | 'down' | 'pageUp' | 'pageDown' | 'top' | 'bottom'

export interface KeyFlags {
  tab?: boolean
  shift?: boolean
  ctrl?: boolean
  escape?: boolean
  leftArrow?: boolean
  rightArrow?: boolean
  upArrow?: boolean
  downArrow?: boolean
  pageUp?: boolean
  pageDown?: boolean
  home?: boolean
  end?: boolean
}

const CTRL_C = '\u0003'

const CHARS: Record<string, DashboardAction> = { '\t': 'next', k: 'up', j: 'down', b: 'pageUp', ' ': 'pageDown', g: 'top', G: 'bottom' }

export function dashboardActions(input: string, key: KeyFlags): DashboardAction[] {
  if (key.escape || (key.ctrl && input === 'c')) return ['quit']
  if ((key.tab && key.shift) || key.leftArrow) return ['previous']
  if (key.tab || key.rightArrow) return ['next']
  if (key.upArrow) return ['up']
  if (key.downArrow) return ['down']
  if (key.pageUp) return ['pageUp']
  if (key.pageDown) return ['pageDown']
  if (key.home) return ['top']
  if (key.end) return ['bottom']
  const actions: DashboardAction[] = []
  for (const ch of input) {
    if (ch === 'q' || ch === CTRL_C) {
      actions.push('quit')
      break
    }
    const action = CHARS[ch]
    if (action) actions.push(action)
  }
  return actions
}
