// The public API of aizk's three entries (docs/api.md) is pinned by API Extractor's reports in
// api/: a change to what `aizk`, `aizk/jobs` or `aizk/graph` export, or to the signatures of what
// they export, fails here until the reports are rewritten (`npm run api`) and the change reviewed.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, it } from 'node:test'
import { repoRoot } from '../support/cli.js'

describe('the API reports', () => {
  it('match the built entries (api/*.api.md)', () => {
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'api-report.mjs'), '--check'], { cwd: repoRoot, encoding: 'utf8' })
    assert.equal(
      run.status,
      0,
      `${run.stdout}${run.stderr}\nthe public API changed: if that is meant, \`npm run build:dev && npm run api\` rewrites api/*.api.md (commit them with the change)`,
    )
  })

  it('name no export that docs/api.md leaves out', () => {
    const page = readFileSync(path.join(repoRoot, 'docs', 'api.md'), 'utf8')
    for (const report of ['aizk', 'aizk-jobs', 'aizk-graph']) {
      const text = readFileSync(path.join(repoRoot, 'api', `${report}.api.md`), 'utf8')
      const names = [...text.matchAll(/^export (?:declare )?(?:abstract )?(?:function|class|const|interface|type|enum) (\w+)/gm)].map((m) => m[1])
      assert.ok(names.length > 10, `no exports read from api/${report}.api.md`)
      assert.deepEqual(
        names.filter((name) => !new RegExp(`\`${name}[\`(]`).test(page)),
        [],
        `exports of api/${report}.api.md that docs/api.md does not name`,
      )
    }
  })
})
