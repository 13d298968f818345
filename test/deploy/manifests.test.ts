/**
 * The deployment examples in deploy/ against their own figures: the Kubernetes Deployment parsed
 * and its required fields, probes, grace period and memory checked (memory against the peaks in
 * the current figures of docs/memory-graph-maintenance.md), and the systemd unit checked by systemd-analyze
 * verify (where the machine has it) and for a database password it must not hold.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, it } from 'node:test'
import { parseAllDocuments } from 'yaml'
import { repoRoot } from '../support/cli.js'

const read = (rel: string) => readFileSync(path.join(repoRoot, rel), 'utf8')

/** A Kubernetes quantity of memory in bytes (Ki, Mi, Gi, k, M, G, or plain bytes). */
export function memoryBytes(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity)
  if (!m) throw new Error(`not a memory quantity: ${quantity}`)
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] ?? ''] ?? 1
  return Number(m[1]) * unit
}

/** Every pass's peak RSS (MB) in the "Peak RSS" column of the maintenance passes' current figures. */
export function documentedPeaksMB(markdown: string): Map<string, number> {
  const lines = markdown.split('\n')
  const header = lines.findIndex((l) => l.startsWith('|') && l.includes('Peak RSS'))
  if (header < 0) throw new Error('no table with a "Peak RSS" column in docs/memory-graph-maintenance.md')
  const column = lines[header].split('|').findIndex((c) => c.includes('Peak RSS'))
  const peaks = new Map<string, number>()
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break
    const cells = line.split('|')
    const numbers = (cells[column].match(/\d+/g) ?? []).map(Number)
    peaks.set(cells[1].trim(), Math.max(...numbers))
  }
  return peaks
}

interface Container {
  name: string
  image: string
  command?: string[]
  args?: string[]
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[]
  ports?: { name: string; containerPort: number }[]
  readinessProbe?: { httpGet?: { path: string; port: string | number } }
  livenessProbe?: { httpGet?: { path: string; port: string | number } }
  resources?: { requests?: { memory?: string }; limits?: { memory?: string } }
}

describe('the Kubernetes example (deploy/kubernetes/aizk-worker.yaml)', () => {
  const docs = parseAllDocuments(read('deploy/kubernetes/aizk-worker.yaml'))
  for (const d of docs) assert.deepEqual(d.errors, [], 'the manifest is valid YAML')
  const objects = docs.map((d) => d.toJS())
  const deployment = objects.find((o) => o?.kind === 'Deployment')
  const spec = deployment?.spec?.template?.spec
  const worker: Container | undefined = spec?.containers?.[0]
  const env = new Map((worker?.env ?? []).map((e) => [e.name, e]))

  it('is an apps/v1 Deployment whose selector matches its pod labels', () => {
    assert.equal(deployment.apiVersion, 'apps/v1')
    assert.equal(deployment.metadata.name, 'aizk-worker')
    const selector = deployment.spec.selector.matchLabels
    assert.ok(Object.keys(selector).length > 0)
    for (const [k, v] of Object.entries(selector)) assert.equal(deployment.spec.template.metadata.labels[k], v, `pod label ${k}`)
    assert.ok(worker?.name && worker.image, 'a named container with an image')
  })

  it('runs the bin itself, so SIGTERM reaches the worker', () => {
    assert.deepEqual([...(worker?.command ?? []), ...(worker?.args ?? [])], ['node', '/opt/aizk/bin/run.js', 'worker'])
  })

  it('runs as non-root under a numeric user, which the kubelet can verify for an image whose USER is a name', () => {
    const dockerUser = /^USER (\S+)$/m.exec(read('Dockerfile'))?.[1]
    assert.equal(spec.securityContext?.runAsNonRoot, true)
    if (dockerUser && !/^\d+$/.test(dockerUser))
      assert.ok(Number.isInteger(spec.securityContext?.runAsUser) && spec.securityContext.runAsUser > 0, `runAsUser set (the image's USER is ${dockerUser})`)
  })

  it('reads the database URL from a secret, never a literal', () => {
    const url = env.get('AIZK_DATABASE_URL')
    assert.ok(url?.valueFrom?.secretKeyRef?.name, 'AIZK_DATABASE_URL from a secretKeyRef')
    assert.equal(url?.value, undefined)
  })

  it('probes /readyz and /livez on the health port it serves and Prometheus scrapes', () => {
    const port = Number(env.get('AIZK_WORKER_HEALTH_PORT')?.value)
    const named = worker?.ports?.find((p) => p.containerPort === port)
    assert.ok(named, `a container port ${port}`)
    assert.equal(worker?.readinessProbe?.httpGet?.path, '/readyz')
    assert.equal(worker?.livenessProbe?.httpGet?.path, '/livez')
    for (const probe of [worker?.readinessProbe, worker?.livenessProbe])
      assert.ok([named.name, port].includes(probe?.httpGet?.port as string), 'the probe targets the health port')
    assert.equal(deployment.spec.template.metadata.annotations['prometheus.io/port'], String(port))
  })

  it('gives pods the drain, the last writes (5 s) and the goodbyes (1 s) before SIGKILL', () => {
    const drain = Number(env.get('AIZK_SHUTDOWN_TIMEOUT_SECONDS')?.value ?? 25)
    assert.ok(spec.terminationGracePeriodSeconds >= drain + 6, `terminationGracePeriodSeconds ${spec.terminationGracePeriodSeconds} >= ${drain} + 6`)
  })

  it('requests memory over the largest documented peak, and limits it a quarter above that', () => {
    const peaks = documentedPeaksMB(read('docs/memory-graph-maintenance.md'))
    const communities = [...peaks].filter(([pass]) => pass.startsWith('Communities')).map(([, mb]) => mb)
    assert.ok(communities.length > 0 && Math.max(...communities) >= 270, `the weekly communities pass's peak is documented (${communities})`)
    const largest = Math.max(...peaks.values()) * 1e6
    const request = memoryBytes(worker?.resources?.requests?.memory ?? '0')
    const limit = memoryBytes(worker?.resources?.limits?.memory ?? '0')
    assert.ok(request >= largest, `requests.memory ${worker?.resources?.requests?.memory} covers the largest peak, ${largest / 1e6} MB`)
    assert.ok(limit >= largest * 1.25, `limits.memory ${worker?.resources?.limits?.memory} is at least 1.25 x ${largest / 1e6} MB`)
  })

  it('reads quantities and the peaks table as the checks above need', () => {
    assert.equal(memoryBytes('256Mi'), 268_435_456)
    assert.ok(memoryBytes('256Mi') < 280e6, 'the old limit is below the communities peak')
    assert.equal(memoryBytes('1G'), 1e9)
    const peaks = documentedPeaksMB(
      '| Pass | Wall | Peak RSS, before / after |\n| --- | --- | --- |\n| A | 3 s | 279-280 / 273-276 MB |\n| B | 1 s | 90 / 95 MB |\n\ntext',
    )
    assert.deepEqual(
      [...peaks],
      [
        ['A', 280],
        ['B', 95],
      ],
    )
  })
})

describe('the KEDA ScaledObject (deploy/kubernetes/aizk-worker-scaledobject.yaml)', () => {
  const docs = parseAllDocuments(read('deploy/kubernetes/aizk-worker-scaledobject.yaml'))
  const scaled = docs[0].toJS()
  const deployment = parseAllDocuments(read('deploy/kubernetes/aizk-worker.yaml'))
    .map((d) => d.toJS())
    .find((o) => o?.kind === 'Deployment')

  it('is one valid KEDA ScaledObject that targets the worker Deployment', () => {
    assert.deepEqual(
      docs.map((d) => d.errors),
      [[]],
      'one valid YAML document',
    )
    assert.equal(scaled.apiVersion, 'keda.sh/v1alpha1')
    assert.equal(scaled.kind, 'ScaledObject')
    assert.equal(scaled.spec.scaleTargetRef.name, deployment.metadata.name)
    assert.ok([undefined, 'Deployment'].includes(scaled.spec.scaleTargetRef.kind))
  })

  it('scales on the queued depth, reduced over replicas, per a positive threshold', () => {
    const [trigger, ...others] = scaled.spec.triggers
    assert.equal(others.length, 0)
    assert.equal(trigger.type, 'prometheus')
    assert.match(trigger.metadata.query, /max by \(entrypoint\) \(aizk_queue_depth\{status="queued"\}\)/)
    assert.ok(Number(trigger.metadata.threshold) > 0, 'a numeric threshold, as a string')
    assert.equal(typeof trigger.metadata.threshold, 'string', 'KEDA reads metadata values as strings')
    assert.equal(trigger.metadata.ignoreNullValues, 'false', 'no answer is a failure (the fallback), not 0')
  })

  it('keeps one replica (the metric comes from the workers), a fallback within the bounds, and slow scale-down', () => {
    const { minReplicaCount: min, maxReplicaCount: max, fallback } = scaled.spec
    assert.ok(min >= 1, 'never scaled to zero on a metric only workers export')
    assert.ok(max >= min)
    assert.ok(fallback.replicas >= min && fallback.replicas <= max)
    const down = scaled.spec.advanced.horizontalPodAutoscalerConfig.behavior.scaleDown
    assert.ok(down.stabilizationWindowSeconds >= 60)
    // Each policy period removes at most the pods the drain can end in time.
    for (const p of down.policies) assert.ok(p.periodSeconds >= deployment.spec.template.spec.terminationGracePeriodSeconds)
  })
})

describe('the systemd example (deploy/systemd/aizk-worker.service)', () => {
  const unit = read('deploy/systemd/aizk-worker.service')
  const directives = unit
    .split('\n')
    .filter((l) => /^[A-Za-z]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const)

  it('keeps the database URL out of Environment= lines, in an EnvironmentFile= of mode 600', () => {
    const environment = directives.filter(([k]) => k === 'Environment').map(([, v]) => v)
    assert.ok(
      environment.every((v) => !/AIZK_DATABASE_URL|PASSWORD|:\/\/[^/\s]*:[^@\s]*@/i.test(v)),
      `no database URL or password in ${environment.join(', ')}`,
    )
    const files = directives.filter(([k]) => k === 'EnvironmentFile').map(([, v]) => v)
    assert.equal(files.length, 1)
    assert.ok(path.isAbsolute(files[0].replace(/^-/, '')), 'an absolute path')
    assert.match(unit, new RegExp(`install -m 600 -o root -g root \\S+ ${files[0]}`), 'the unit says how to create the file, mode 600')
    const example = read('deploy/systemd/worker.env.example')
    assert.match(example, /^AIZK_DATABASE_URL=postgres:\/\/aizk:CHANGE-ME@/m, 'the example file holds a placeholder, not a password')
  })

  it('stops with SIGTERM and waits longer than the drain', () => {
    const get = (k: string) => directives.find(([d]) => d === k)?.[1]
    assert.equal(get('KillSignal'), 'SIGTERM')
    assert.ok(Number(get('TimeoutStopSec')) > 25)
    assert.match(get('ExecStart') ?? '', /^\/usr\/bin\/node \/opt\/aizk\/bin\/run\.js worker$/)
  })

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' })
  const skip = analyze.status === 0 ? false : `systemd-analyze is not available here (${analyze.error?.message ?? analyze.stderr.trim()})`
  it('passes systemd-analyze verify', { skip }, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aizk-unit-'))
    try {
      const file = path.join(dir, 'aizk-worker.service')
      copyFileSync(path.join(repoRoot, 'deploy/systemd/aizk-worker.service'), file)
      const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' })
      // verify reports bad keys and values on stderr with status 0: both must be clean for this unit.
      const ours = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('aizk-worker'))
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`)
      assert.deepEqual(ours, [])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
