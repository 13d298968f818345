/**
 * How much of the queue a crash of the server keeps: PgQueuer's durability levels (its `pgq
 * durability`), read from and written to the persistence of its four tables. aizk sets `durable`
 * (every table logged, as installed) and `balanced` (the log and the statistics unlogged), never
 * `volatile`: an unlogged queue table would lose, in a crash, the job of a write that survives
 * it (docs/deployment.md#durability).
 */
import type pg from 'pg'
import { ConflictError, UsageError } from '../errors.js'
import { readQueueTables } from './schema-info.js'
import { alterPersistenceSql, DURABILITY_TABLES, type DurabilityTable, lockTimeoutSql } from './sql/durability.js'

type Persistence = 'LOGGED' | 'UNLOGGED'

const LEVELS = {
  durable: { pgqueuer: 'LOGGED', pgqueuer_log: 'LOGGED', pgqueuer_statistics: 'LOGGED', pgqueuer_schedules: 'LOGGED' },
  balanced: { pgqueuer: 'LOGGED', pgqueuer_log: 'UNLOGGED', pgqueuer_statistics: 'UNLOGGED', pgqueuer_schedules: 'LOGGED' },
  volatile: { pgqueuer: 'UNLOGGED', pgqueuer_log: 'UNLOGGED', pgqueuer_statistics: 'UNLOGGED', pgqueuer_schedules: 'UNLOGGED' },
} as const satisfies Record<string, Record<DurabilityTable, Persistence>>

export type DurabilityLevel = keyof typeof LEVELS
/** The levels aizk will set. */
export type SettableLevel = Exclude<DurabilityLevel, 'volatile'>
export const SETTABLE_LEVELS: readonly SettableLevel[] = ['durable', 'balanced']

export interface DurabilityTableState {
  table: DurabilityTable
  persistence: Persistence
  totalBytes: number
}

export interface DurabilityState {
  /** 'mixed' when the tables match none of PgQueuer's levels (set by hand). */
  level: DurabilityLevel | 'mixed'
  tables: DurabilityTableState[]
}

export interface DurabilityChange {
  before: DurabilityState
  after: DurabilityState
  /** The statements run (or, with dryRun, that would run), in order. */
  statements: string[]
  ms: number
}

export function parseDurabilityLevel(word: string): SettableLevel {
  const level = word.trim().toLowerCase()
  if (level === 'volatile') {
    throw new UsageError(
      'aizk does not set the volatile level: it makes the pgqueuer table itself unlogged, and a crash of the server would then lose the jobs of writes that survive it',
      'use balanced (the log and the statistics unlogged, the queue kept) or durable',
    )
  }
  if (!(SETTABLE_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`"${word}" is not a durability level`, `use one of: ${SETTABLE_LEVELS.join(', ')}`)
  }
  return level as SettableLevel
}

export async function readDurability(db: pg.Pool | pg.ClientBase): Promise<DurabilityState> {
  const info = await readQueueTables(db)
  const tables = DURABILITY_TABLES.map((table) => {
    const t = info.find((i) => i.table === table)
    if (!t?.exists) throw new UsageError(`table ${table} does not exist`, 'run `aizk install` first')
    return { table, persistence: t.persistence === 'UNLOGGED' ? 'UNLOGGED' : 'LOGGED', totalBytes: t.totalBytes ?? 0 } satisfies DurabilityTableState
  })
  const level = (Object.keys(LEVELS) as DurabilityLevel[]).find((l) => tables.every((t) => LEVELS[l][t.table] === t.persistence))
  return { level: level ?? 'mixed', tables }
}

/** The tables a switch to `level` rewrites, with their sizes now. */
export function tablesToSwitch(state: DurabilityState, level: SettableLevel): DurabilityTableState[] {
  return state.tables.filter((t) => LEVELS[level][t.table] !== t.persistence)
}

/**
 * Switch to `level` in one transaction: every table changes or none does. Each switched table is
 * rewritten under an ACCESS EXCLUSIVE lock (a switch to LOGGED also writes it whole to the WAL);
 * the lock is waited for at most `lockTimeoutMs`, then the switch fails with nothing changed.
 */
export async function setDurability(pool: pg.Pool, level: SettableLevel, o: { lockTimeoutMs: number; dryRun?: boolean }): Promise<DurabilityChange> {
  const started = Date.now()
  const client = await pool.connect()
  try {
    const before = await readDurability(client)
    const statements = tablesToSwitch(before, level).map((t) => alterPersistenceSql(t.table, LEVELS[level][t.table]))
    if (o.dryRun || statements.length === 0) return { before, after: before, statements, ms: Date.now() - started }
    await client.query('BEGIN')
    try {
      await client.query(lockTimeoutSql(o.lockTimeoutMs))
      for (const sql of statements) await client.query(sql)
      await client.query('COMMIT')
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {})
      throw explainSwitchError(err)
    }
    return { before, after: await readDurability(client), statements, ms: Date.now() - started }
  } finally {
    client.release()
  }
}

function explainSwitchError(err: unknown): unknown {
  const code = (err as { code?: string }).code
  if (code === '55P03') {
    return new ConflictError(
      'could not lock the queue tables for the switch: another session holds them; nothing was changed',
      'retry when the queue is quieter, or wait longer with --lock-timeout',
    )
  }
  if (code === '42501') {
    return new UsageError(
      `the switch needs the owner of the queue tables: ${(err as Error).message}; nothing was changed`,
      'run it with the database URL `aizk install` uses (the owner), not the app role',
    )
  }
  return err
}
