/**
 * The dashboard's keys. ink hands a burst of plain keys written at once (three Tab presses in
 * one read) to `useInput` as one string, so each character is decoded here on its own: every
 * key counts. Escape sequences (arrows, shift-tab) arrive one per call, already split by ink.
 */
export type DashboardAction = 'next' | 'previous' | 'quit'

export interface KeyFlags {
  tab?: boolean
  shift?: boolean
  ctrl?: boolean
  escape?: boolean
  leftArrow?: boolean
  rightArrow?: boolean
  upArrow?: boolean
  downArrow?: boolean
}

const CTRL_C = '\u0003'

export function dashboardActions(input: string, key: KeyFlags): DashboardAction[] {
  if (key.escape || (key.ctrl && input === 'c')) return ['quit']
  if ((key.tab && key.shift) || key.leftArrow || key.upArrow) return ['previous']
  if (key.tab || key.rightArrow || key.downArrow) return ['next']
  const actions: DashboardAction[] = []
  for (const ch of input) {
    if (ch === 'q' || ch === CTRL_C) {
      actions.push('quit')
      break
    }
    if (ch === '\t') actions.push('next')
  }
  return actions
}
