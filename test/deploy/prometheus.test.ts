/**
 * The alert rules and the Grafana dashboard in deploy/, checked by Prometheus's own promtool
 * (scripts/fetch-promtool.sh: the one on PATH, else Debian's package unpacked into a cache, no
 * system change): `check rules`, `test rules` (the unit tests beside the rules), and `check
 * metrics` on a real scrape of a spawned worker. Every metric a rule or a panel queries must be
 * one that scrape exports (so must the KEDA ScaledObject's queries, which promtool parses too),
 * every alert has its runbook in docs/observability.md, and the dashboard JSON is exactly what its
 * generator writes.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, it } from 'node:test'
import { parse } from 'yaml'
import { enqueue } from '../../src/queue/enqueue.js'
import { repoRoot } from '../support/cli.js'
import { testDatabase } from '../support/db.js'
import { waitFor } from '../support/wait-for.js'
import { spawnWorker, type WorkerProcess, workerEnv } from '../support/worker-process.js'

const RULES = path.join(repoRoot, 'deploy/prometheus/aizk-alerts.yml')
const RULE_TESTS = path.join(repoRoot, 'deploy/prometheus/aizk-alerts.test.yml')
const DASHBOARD = path.join(repoRoot, 'deploy/grafana/aizk-dashboard.json')
const SCALED_OBJECT = path.join(repoRoot, 'deploy/kubernetes/aizk-worker-scaledobject.yaml')

/** promtool's path, or why there is none (the tests that need it skip with that reason). */
function findPromtool(): { bin?: string; skip?: string } {
  const r = spawnSync('bash', [path.join(repoRoot, 'scripts/fetch-promtool.sh')], { encoding: 'utf8', timeout: 300_000 })
  if (r.status === 0 && r.stdout.trim()) return { bin: r.stdout.trim() }
  return { skip: `promtool unavailable: ${(r.stderr || r.error?.message || 'scripts/fetch-promtool.sh failed').trim()}` }
}
const promtool = findPromtool()

function runPromtool(args: string[], input?: string): { code: number | null; out: string } {
  const r = spawnSync(promtool.bin as string, args, { input, encoding: 'utf8', cwd: repoRoot })
  return { code: r.status, out: `${r.stdout}${r.stderr}` }
}

interface Rule {
  alert: string
  expr: string
  annotations: Record<string, string>
}
const rules: Rule[] = parse(readFileSync(RULES, 'utf8')).groups.flatMap((g: { rules: Rule[] }) => g.rules)

interface Panel {
  title: string
  targets: { expr: string }[]
}
const panels: Panel[] = JSON.parse(readFileSync(DASHBOARD, 'utf8')).panels

/** The Prometheus queries KEDA scales the workers on. */
const scalerQueries: string[] = parse(readFileSync(SCALED_OBJECT, 'utf8'))
  .spec.triggers.filter((t: { type: string }) => t.type === 'prometheus')
  .map((t: { metadata: { query: string } }) => t.metadata.query)

/** The metric names a PromQL expression reads (aizk's own and the process metrics). */
function metricNames(expr: string): string[] {
  const unquoted = expr.replace(/"[^"]*"/g, '""')
  return [...new Set(unquoted.match(/\b(?:aizk|process|nodejs)_[a-z0-9_]+\b/g) ?? [])]
}

/** Metric families in a text exposition: each `# TYPE` name, plus its histogram series names. */
function exportedNames(scrape: string): Set<string> {
  const names = new Set<string>()
  for (const m of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(m[1])
    if (m[2] === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(m[1] + suffix)
  }
  return names
}

/** The exposition of aizk's own metric families only. */
function aizkFamilies(scrape: string): string {
  const blocks = scrape.split(/^(?=# HELP )/m)
  return blocks.filter((b) => b.startsWith('# HELP aizk_')).join('')
}

describe('alert rules, checked by promtool', { skip: promtool.skip }, () => {
  it('promtool check rules accepts the rules file', () => {
    const r = runPromtool(['check', 'rules', RULES])
    assert.equal(r.code, 0, r.out)
    assert.match(r.out, new RegExp(`SUCCESS: ${rules.length} rules found`))
  })

  it("promtool parses the KEDA ScaledObject's queries", () => {
    assert.ok(scalerQueries.length > 0, 'the ScaledObject has a prometheus trigger')
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-keda-'))
    try {
      const file = path.join(dir, 'keda-queries.yml')
      const recorded = scalerQueries.map((expr, i) => ({ record: `keda:aizk_scaler_${i}`, expr }))
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'keda', rules: recorded }] }))
      const r = runPromtool(['check', 'rules', file])
      assert.equal(r.code, 0, r.out)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("the rules' unit tests pass (promtool test rules), and each alert is tested firing", () => {
    const r = runPromtool(['test', 'rules', RULE_TESTS])
    assert.equal(r.code, 0, r.out)
    const tests = parse(readFileSync(RULE_TESTS, 'utf8')).tests as { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[]
    const firing = new Set(tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)))
    const silent = new Set(tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length === 0).map((a) => a.alertname)))
    for (const rule of rules) {
      assert.ok(firing.has(rule.alert), `${rule.alert} has a unit test where it fires`)
      assert.ok(silent.has(rule.alert), `${rule.alert} has a unit test where it stays silent`)
    }
  })
})

describe('every alert has a runbook line in docs/observability.md', () => {
  const doc = readFileSync(path.join(repoRoot, 'docs/observability.md'), 'utf8')
  for (const rule of rules) {
    it(rule.alert, () => {
      assert.equal(rule.annotations.runbook, `docs/observability.md#${rule.alert.toLowerCase()}`)
      const section = doc.split(/^### /m).find((s) => s.startsWith(`${rule.alert}\n`))
      assert.ok(section, `a "### ${rule.alert}" section`)
      assert.match(section, /\*\*Runbook\*\*: \S/, `${rule.alert}: a **Runbook**: line`)
    })
  }
})

describe('the Grafana dashboard', () => {
  it('is exactly what scripts/grafana-dashboard.mjs generates', () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/grafana-dashboard.mjs'), '--check'], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    assert.ok(panels.length >= 10)
    for (const p of panels) assert.ok(p.targets.length > 0 && p.targets.every((t) => t.expr.trim()), `${p.title}: a query`)
  })
})

describe('a real scrape of a spawned worker', () => {
  const db = testDatabase()
  let worker: WorkerProcess
  let scrape = ''

  before(async () => {
    worker = spawnWorker(workerEnv(db.url, { AIZK_WORKER_HEALTH_PORT: '0', AIZK_WORKER_NO_SCHEDULER: 'false' }))
    const port = await waitFor('the health port line', () => worker.stderr().match(/health on port (\d+)/)?.[1], {
      timeoutMs: 60_000,
      detail: () => worker.stderr(),
    })
    const id = await enqueue(db.pool, { entrypoint: 'test_noop', payload: {} })
    await waitFor('the job completed', async () => (await db.pool.query('select 1 from pgqueuer where id = $1', [id])).rowCount === 0)
    scrape = await waitFor('a scrape with the schedules', async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      return /aizk_schedule_period_seconds\{entrypoint="aizk_cron_/.test(text) && /aizk_worker_last_heartbeat_timestamp_seconds \d/.test(text)
        ? text
        : undefined
    })
  })
  db.beforeDrop(async () => {
    await worker?.stop()
  })

  it("passes promtool check metrics: aizk's families clean, the rest only prom-client's known three", { skip: promtool.skip }, () => {
    const own = runPromtool(['check', 'metrics'], aizkFamilies(scrape))
    assert.equal(own.code, 0, own.out)
    assert.equal(own.out.trim(), '', "no lint problem in aizk's own metrics")
    // prom-client's default Node metrics include three gauges named *_total, which promtool
    // lints; they are the library's names, not aizk's. Nothing else may be reported.
    const all = runPromtool(['check', 'metrics'], scrape)
    const problems = all.out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[0])
    assert.deepEqual(problems.sort(), ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'], all.out)
  })

  it('exports every metric the rules, the dashboard and the KEDA ScaledObject query', () => {
    const exported = exportedNames(scrape)
    const queried = [
      ...rules.map((r) => [r.alert, r.expr]),
      ...panels.flatMap((p) => p.targets.map((t) => [p.title, t.expr])),
      ...scalerQueries.map((q) => ['ScaledObject', q]),
    ]
    const missing = queried.flatMap(([who, expr]) =>
      metricNames(expr)
        .filter((n) => !exported.has(n))
        .map((n) => `${who}: ${n}`),
    )
    assert.deepEqual(missing, [])
    assert.ok(
      queried.every(([, expr]) => metricNames(expr).length > 0),
      'every query reads a metric',
    )
  })

  it('reports the heartbeat, the oldest ready age of bound entrypoints and the schedules', () => {
    const heartbeat = Number(scrape.match(/^aizk_worker_last_heartbeat_timestamp_seconds (\S+)$/m)?.[1])
    assert.ok(Math.abs(Date.now() / 1000 - heartbeat) < 60, `a recent heartbeat: ${heartbeat}`)
    assert.match(scrape, /^aizk_queue_oldest_ready_age_seconds\{entrypoint="test_noop"\} 0$/m)
    const period = Number(scrape.match(/^aizk_schedule_period_seconds\{entrypoint="aizk_cron_[a-z_]+"\} (\S+)$/m)?.[1])
    assert.ok(period > 0)
  })
})

describe('metric names in a query', () => {
  it('are found in histograms, ranges and label matchers', () => {
    assert.deepEqual(metricNames('histogram_quantile(0.95, sum by (le) (rate(aizk_worker_pick_latency_seconds_bucket[5m]))) and on (job) aizk_worker_db_up'), [
      'aizk_worker_pick_latency_seconds_bucket',
      'aizk_worker_db_up',
    ])
    assert.ok(exportedNames('# TYPE aizk_x_seconds histogram\n').has('aizk_x_seconds_bucket'))
  })
})
