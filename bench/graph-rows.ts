/** The graph benchmarks' table: one row a figure, and numbers formatted for it. */
export type Row = { section: string; what: string; value: string; note?: string }

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
