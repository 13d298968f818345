import type pg from 'pg'

export function runOwner(uid?: number, host?: string): string
export function dropStale(client: pg.Client, owner: string): Promise<string[]>
