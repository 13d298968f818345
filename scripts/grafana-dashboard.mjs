#!/usr/bin/env node
// Generates deploy/grafana/aizk-dashboard.json, the Grafana dashboard of aizk's worker metrics
// (docs/observability.md#dashboard). Edit the panels here, never the JSON:
//   node scripts/grafana-dashboard.mjs           write the file
//   node scripts/grafana-dashboard.mjs --check   exit 1 when the file is not what this script writes
// The suite runs --check, and checks every panel's query against a real worker's /metrics.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
export const DASHBOARD_PATH = path.join(root, 'deploy', 'grafana', 'aizk-dashboard.json')

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' }
const PROJECTION = 'aizk_build_graph_chunk'

/** Panels in reading order, two per row: title, unit, queries (legend, expr), what it shows. */
const PANELS = [
  {
    title: 'Jobs finished per second, by outcome',
    unit: 'ops',
    description: 'Handler runs ending completed, retried or held, over every worker.',
    targets: [['{{outcome}}', 'sum by (outcome) (rate(aizk_worker_job_duration_seconds_count[5m]))']],
  },
  {
    title: 'Jobs picked per second, by entrypoint',
    unit: 'ops',
    description: 'What the workers take off the queue.',
    targets: [['{{entrypoint}}', 'sum by (entrypoint) (rate(aizk_worker_jobs_picked_total[5m]))']],
  },
  {
    title: 'Queued jobs, by entrypoint',
    unit: 'short',
    description: 'Every worker reports the same table: max, not sum.',
    targets: [['{{entrypoint}}', 'max by (entrypoint) (aizk_queue_depth{status="queued"})']],
  },
  {
    title: 'Held jobs, by entrypoint (AizkHeldJobsRising)',
    unit: 'short',
    description: 'Status failed, kept for an operator: `aizk requeue --dry-run`.',
    targets: [['{{entrypoint}}', 'max by (entrypoint) (aizk_queue_depth{status="failed"})']],
  },
  {
    title: 'Oldest ready job, by entrypoint (AizkOldestQueuedJobTooOld)',
    unit: 's',
    description: 'How long the oldest ready queued job has waited; the alert fires past 15 minutes.',
    targets: [['{{entrypoint}}', 'max by (entrypoint) (aizk_queue_oldest_ready_age_seconds)']],
    threshold: 900,
  },
  {
    title: 'Chunk projection backlog (AizkProjectionBacklogGrowing)',
    unit: 'short',
    description: 'Chunks queued for projection into the memory graph.',
    targets: [['queued', `max(aizk_queue_depth{entrypoint="${PROJECTION}",status="queued"})`]],
    threshold: 1000,
  },
  {
    title: 'Pick latency p95, by entrypoint',
    unit: 's',
    description: 'From ready to started in a worker.',
    targets: [['{{entrypoint}}', 'histogram_quantile(0.95, sum by (le, entrypoint) (rate(aizk_worker_pick_latency_seconds_bucket[5m])))']],
  },
  {
    title: 'Handler run time p95, by entrypoint',
    unit: 's',
    description: 'Every outcome together.',
    targets: [['{{entrypoint}}', 'histogram_quantile(0.95, sum by (le, entrypoint) (rate(aizk_worker_job_duration_seconds_bucket[5m])))']],
  },
  {
    title: 'Heartbeat age, by worker (AizkNoWorkerHeartbeat)',
    unit: 's',
    description: "Seconds since each worker's heartbeat last reached the database.",
    targets: [['{{instance}}', 'time() - aizk_worker_last_heartbeat_timestamp_seconds']],
    threshold: 90,
  },
  {
    title: 'Database reachable, by worker (AizkWorkerDatabaseDown)',
    unit: 'short',
    description: '1 while the worker reaches its database.',
    targets: [['{{instance}}', 'min by (instance) (aizk_worker_db_up)']],
  },
  {
    title: 'Worker errors per second, by where (AizkPickFailures)',
    unit: 'ops',
    description: 'worker:error events: pick, heartbeat, flush, scheduler:<job>, ...',
    targets: [
      ['{{where}}', 'sum by (where) (rate(aizk_worker_errors_total[5m]))'],
      ['database lost', 'sum(rate(aizk_worker_db_disconnects_total[5m]))'],
    ],
  },
  {
    title: 'Since each schedule last fired (AizkScheduleNotFired)',
    unit: 's',
    description: 'The alert fires past twice the period (dashed).',
    targets: [
      ['{{entrypoint}}', 'time() - max by (entrypoint) (aizk_schedule_last_fire_timestamp_seconds{entrypoint=~"aizk_cron_.+"})'],
      ['{{entrypoint}} x2 period', '2 * max by (entrypoint) (aizk_schedule_period_seconds{entrypoint=~"aizk_cron_.+"})'],
    ],
  },
  {
    title: 'Jobs running and retried, by worker',
    unit: 'short',
    description: 'In flight now; retries per second.',
    targets: [
      ['{{instance}} in flight', 'sum by (instance) (aizk_worker_jobs_in_flight)'],
      ['{{instance}} retried/s', 'sum by (instance) (rate(aizk_worker_jobs_retried_total[5m]))'],
    ],
  },
  {
    title: 'Resident memory, by worker',
    unit: 'bytes',
    description: 'Against the container limit: the weekly communities pass peaks near 280 MB.',
    // The process metrics are every Node exporter's: keep those of scrape targets that are aizk workers.
    targets: [['{{instance}}', 'process_resident_memory_bytes and on (job, instance) aizk_worker_db_up']],
  },
]

function panel(p, index) {
  return {
    id: index + 1,
    type: 'timeseries',
    title: p.title,
    description: p.description,
    datasource: DATASOURCE,
    gridPos: { h: 8, w: 12, x: (index % 2) * 12, y: Math.floor(index / 2) * 8 },
    fieldConfig: {
      defaults: {
        unit: p.unit,
        thresholds: {
          mode: 'absolute',
          steps: [{ color: 'green', value: null }, ...(p.threshold === undefined ? [] : [{ color: 'red', value: p.threshold }])],
        },
        custom: { thresholdsStyle: { mode: p.threshold === undefined ? 'off' : 'dashed' } },
      },
      overrides: [],
    },
    options: { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
    targets: p.targets.map(([legendFormat, expr], i) => ({ refId: String.fromCharCode(65 + i), datasource: DATASOURCE, expr, legendFormat })),
  }
}

export function dashboard() {
  return {
    title: 'aizk workers',
    uid: 'aizk-workers',
    tags: ['aizk'],
    timezone: 'utc',
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Prometheus' },
      ],
    },
    panels: PANELS.map(panel),
  }
}

export function dashboardText() {
  return `${JSON.stringify(dashboard(), null, 2)}\n`
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = dashboardText()
  if (process.argv.includes('--check')) {
    let current = ''
    try {
      current = readFileSync(DASHBOARD_PATH, 'utf8')
    } catch {}
    if (current !== text) {
      console.error(`${path.relative(root, DASHBOARD_PATH)} is not what scripts/grafana-dashboard.mjs writes: run node scripts/grafana-dashboard.mjs`)
      process.exit(1)
    }
  } else {
    writeFileSync(DASHBOARD_PATH, text)
  }
}
