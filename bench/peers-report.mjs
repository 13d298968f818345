// Reads the peer harness's results (JSONL files written by its run-all.sh; one file per
// BENCH_CONCURRENCY) and prints issue 15's targets as ratios in one table: aizk against the best
// peer at the same concurrency, against the SQL floor, and against a before tree when one ran.
//   node bench/peers-report.mjs results-c16.jsonl results-c64.jsonl
// Knobs (env): REPORT_AIZK ("aizk"), REPORT_BEFORE ("aizk-before"), REPORT_PEERS
// ("graphile-worker:batched graphile-worker:default"; W2 compares with the first, W3 with the best).
import { readFileSync } from 'node:fs'

const files = process.argv.slice(2)
if (!files.length) {
  console.error('usage: node bench/peers-report.mjs results.jsonl [more.jsonl ...]')
  process.exit(2)
}
const AIZK = process.env.REPORT_AIZK ?? 'aizk'
const BEFORE = process.env.REPORT_BEFORE ?? 'aizk-before'
const PEERS = (process.env.REPORT_PEERS ?? 'graphile-worker:batched graphile-worker:default').split(/\s+/).filter(Boolean)

/** Every measurement, tagged with the concurrency of the run that made it. */
const records = []
for (const file of files) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
  const concurrency = lines.find((l) => l.kind === 'env')?.concurrency ?? 16
  for (const r of lines) if (r.workload && r.valid !== false && !r.timedOut) records.push({ ...r, concurrency })
}

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  if (!s.length) return Number.NaN
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
/** Median of `field` over the runs of workload/system(/profile) at a concurrency (any profile when unset). */
function med(workload, system, profile, field = 'value', concurrency = undefined) {
  const rs = records.filter(
    (r) =>
      r.workload === workload &&
      r.system === system &&
      (profile === undefined || r.profile === profile) &&
      (concurrency === undefined || r.concurrency === concurrency),
  )
  return { value: median(rs.map((r) => r[field])), runs: rs.length }
}
const floor = (t) => med(`L-${t}`, 'postgres-floor', 'pgbench').value
const peerOf = (spec) => {
  const [system, profile] = spec.split(':')
  return { system, profile }
}
const fmt = (x) => (!Number.isFinite(x) ? '—' : x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(x < 10 ? 2 : 1))
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : Number.NaN)
const verdict = (r, ok) => (!Number.isFinite(r) ? 'not measured' : ok(r) ? 'met' : 'not met')

const rows = []
function row(target, what, mine, before, against, againstLabel, r, goal, ok) {
  rows.push(
    `| ${target} | ${what} | ${fmt(mine)} | ${fmt(before)} | ${fmt(against)} ${againstLabel} | ${Number.isFinite(r) ? r.toFixed(2) : '—'} | ${goal} | ${verdict(r, ok)} |`,
  )
}

const concurrencies = [...new Set(records.filter((r) => r.workload === 'W2').map((r) => r.concurrency))].sort((a, b) => a - b)
const [drainPeer] = PEERS.map(peerOf)
/** aizk's worker profiles that ran W2, in the order they first appear (the adapter's default first). */
const drainProfiles = [...new Set(records.filter((r) => r.workload === 'W2' && r.system === AIZK).map((r) => r.profile))]
for (const c of concurrencies) {
  for (const profile of drainProfiles) {
    const mine = med('W2', AIZK, profile, 'value', c).value
    const peer = med('W2', drainPeer.system, drainPeer.profile, 'value', c).value
    const r = ratio(mine, peer)
    row(
      1,
      `drain, ${c} in flight, profile ${profile} (jobs/s)`,
      mine,
      med('W2', BEFORE, profile, 'value', c).value,
      peer,
      drainPeer.system,
      r,
      '≥ 1.15',
      (x) => x >= 1.15,
    )
  }
}
const single = med('W1-single', AIZK).value
const bulk = med('W1-bulk', AIZK).value
row(3, 'enqueue, 1 per call (jobs/s)', single, med('W1-single', BEFORE).value, floor('an'), 'floor an', ratio(single, floor('an')), '≥ 0.85', (x) => x >= 0.85)
row(3, 'enqueue, 1,000 per call (jobs/s)', bulk, med('W1-bulk', BEFORE).value, floor('a64'), 'floor a64', ratio(bulk, floor('a64')), '≥ 0.8', (x) => x >= 0.8)
for (const field of ['p50', 'p99']) {
  const mine = med('W3', AIZK, undefined, field).value
  const peers = PEERS.map(peerOf)
    .map((p) => ({ ...p, v: med('W3', p.system, p.profile, field).value }))
    .filter((p) => Number.isFinite(p.v))
  const best = peers.sort((a, b) => a.v - b.v)[0]
  row(
    5,
    `latency ${field} (ms)`,
    mine,
    med('W3', BEFORE, undefined, field).value,
    best?.v,
    best ? `${best.system}/${best.profile}` : '',
    ratio(mine, best?.v),
    '≤ 0.8',
    (x) => x <= 0.8,
  )
}
for (const c of concurrencies) {
  for (const profile of drainProfiles) {
    const mine = med('W2', AIZK, profile, 'cpuMsPer1k', c).value
    const peer = med('W2', drainPeer.system, drainPeer.profile, 'cpuMsPer1k', c).value
    row(
      6,
      `drain CPU ms / 1,000 jobs, ${c} in flight, profile ${profile}`,
      mine,
      med('W2', BEFORE, profile, 'cpuMsPer1k', c).value,
      peer,
      drainPeer.system,
      ratio(mine, peer),
      '≤ 0.8',
      (x) => x <= 0.8,
    )
  }
}
for (const [workload, label] of [
  ['W1-single', 'enqueue 1 per call'],
  ['W1-bulk', 'enqueue 1,000 per call'],
]) {
  const mine = med(workload, AIZK, undefined, 'cpuMsPer1k').value
  const before = med(workload, BEFORE, undefined, 'cpuMsPer1k').value
  row(6, `${label}, CPU ms / 1,000 jobs`, mine, before, before, 'before', ratio(mine, before), '≤ 1.05 (no worse than before, within noise)', (x) => x <= 1.05)
}

console.log(`Issue 15 targets from ${files.length} harness run(s); medians of ${AIZK}'s runs; "before" is ${BEFORE}.`)
console.log('')
console.log('| target | measurement | aizk | before | against | ratio | goal | |')
console.log('|---|---|---:|---:|---:|---:|---|---|')
for (const r of rows) console.log(r)
