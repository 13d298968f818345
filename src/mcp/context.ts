/** What every tool works with: the pool the command opened, the settings, who acts. */
import type pg from 'pg'
import type { Settings } from '../settings.js'

export interface McpContext {
  pool: pg.Pool
  settings: Settings
  /** Recorded with an action (cancel, pause) as the CLI records its operator. */
  actor: string
}
