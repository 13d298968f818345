/**
 * `npm run definitions`: writes the definition files generated from src/db/scoped-tables.ts
 * (docs/schema.md#generated-definitions) and removes generated files whose table or reference is
 * gone. test/db/scoped-tables.test.ts fails when the committed files differ from what this writes.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DEFINITIONS_DIR } from '../src/db/definitions.js'
import { SCOPED_TABLES } from '../src/db/scoped-tables.js'
import { isGeneratedName, scopedDefinitions } from '../src/db/sql/scoped-definitions.js'

const files = scopedDefinitions(SCOPED_TABLES)
for (const kind of ['functions', 'triggers', 'policies']) {
  for (const file of readdirSync(path.join(DEFINITIONS_DIR, kind))) {
    const name = `${kind}/${file.replace(/\.sql$/, '')}`
    if (isGeneratedName(name) && !files.has(name)) rmSync(path.join(DEFINITIONS_DIR, kind, file))
  }
}
for (const [name, text] of files) writeFileSync(path.join(DEFINITIONS_DIR, `${name}.sql`), text)
console.log(`${files.size} definition files written from src/db/scoped-tables.ts`)
