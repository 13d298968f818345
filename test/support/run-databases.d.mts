import type pg from 'pg'

export interface RunOwner {
  uid: number
  host: string
}

export function runOwner(uid?: number, host?: string): RunOwner
export function runPrefix(pid: number, owner?: RunOwner): string
export function dropStale(client: pg.Client, owner?: RunOwner): Promise<string[]>
