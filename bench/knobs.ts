/**
 * Every benchmark reads its knobs through these, by their environment variable's name; the table
 * in docs/benchmarks.md#knobs lists each one (test/unit/bench-knobs.test.ts checks).
 */
const env = process.env

export const num = (name: string, fallback: number): number => (env[name] ? Number(env[name]) : fallback)
export const words = (name: string, fallback: string): string[] => (env[name] ?? fallback).split(/[\s,]+/).filter(Boolean)
export const flag = (name: string): boolean => Boolean(env[name])
export const text = (name: string): string | undefined => env[name] || undefined

/** The server scratch databases are made on. */
export const benchServer = (): string => env.AIZK_BENCH_URL ?? env.AIZK_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const benchAppRole = (): string => env.AIZK_APP_ROLE ?? 'aizk_app'
