#!/usr/bin/env node
// The API reports of aizk's three package entries (docs/api.md), written by Microsoft's API
// Extractor from the built declarations (dist/, `npm run build:dev` first) into api/*.api.md.
//   node scripts/api-report.mjs          rewrite the reports (`npm run api`)
//   node scripts/api-report.mjs --check  exit 1, naming the entries, when a report differs
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const check = process.argv.includes('--check')
const ENTRIES = [
  { name: 'aizk', types: 'dist/index.d.ts', namesMissing: true },
  // These two build on `aizk`'s types (QueueJob, Settings…), which they do not re-export.
  { name: 'aizk-jobs', types: 'dist/index-jobs.d.ts', namesMissing: false },
  { name: 'aizk-graph', types: 'dist/index-graph.d.ts', namesMissing: false },
]

/** API Extractor's notice that it analyses with its own TypeScript is no news. */
const quiet = (m) => {
  if (m.messageId === 'console-preamble') m.handled = true
}

const scratch = mkdtempSync(path.join(tmpdir(), 'aizk-api-'))
const changed = []
try {
  for (const entry of ENTRIES) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: path.join(root, entry.types),
        compiler: { tsconfigFilePath: path.join(root, 'tsconfig.build.json') },
        apiReport: { enabled: true, reportFileName: entry.name, reportFolder: path.join(root, 'api'), reportTempFolder: scratch },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // aizk does not tag releases (@public, @beta): every export is public.
          extractorMessageReporting: {
            'ae-missing-release-tag': { logLevel: 'none' },
            // A type a signature needs but no entry exports: named in the report, to be decided.
            'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: entry.namesMissing },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
      configObjectFullPath: path.join(root, 'api', `${entry.name}.api-extractor.json`),
      packageJsonFullPath: path.join(root, 'package.json'),
    })
    const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback: quiet })
    if (result.apiReportChanged) changed.push(entry.name)
    if (result.errorCount > 0) {
      console.error(`api-extractor: ${result.errorCount} errors for ${entry.name}`)
      process.exitCode = 1
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
if (changed.length && check) {
  console.error(`the public API differs from api/${changed.map((n) => `${n}.api.md`).join(', api/')}: review the change, then \`npm run api\` (after \`npm run build:dev\`) rewrites the reports`)
  process.exitCode = 1
} else if (changed.length) console.error(`rewrote api/${changed.map((n) => `${n}.api.md`).join(', api/')}`)
