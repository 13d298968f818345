// Which single statements end the transaction they run in (src/db/transaction-guard.ts): the
// guard refuses those before they are sent, whatever comments or empty statements come first.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { endsTransaction } from '../../src/db/transaction-guard.js'

describe('endsTransaction', () => {
  it('finds every way to end a transaction block, after whitespace, comments and empty statements', () => {
    for (const sql of [
      'commit',
      'COMMIT WORK',
      'commit and chain',
      'End',
      'abort',
      'rollback',
      'ROLLBACK TRANSACTION AND NO CHAIN',
      'rollback work',
      "prepare transaction 'x'",
      "commit prepared 'x'",
      '  \n\t commit',
      ';;; commit',
      '-- a line comment\ncommit',
      '/* a /* nested */ comment */ commit',
      '/**/commit',
      '/* a */ -- b\r\n ; rollback',
    ]) {
      assert.equal(endsTransaction(sql), true, JSON.stringify(sql))
    }
  })

  it('lets everything else through, savepoints included', () => {
    for (const sql of [
      'select 1',
      'rollback to savepoint s',
      'ROLLBACK TO s',
      'rollback work to s',
      'rollback transaction /* c */ to savepoint s',
      'savepoint s',
      'release savepoint s',
      'prepare p as select 1',
      'end_of_name',
      "select 'commit'",
      'with commit as (select 1) select * from commit',
      '/* commit */ select 1',
      '-- commit\nselect 1',
      '',
    ]) {
      assert.equal(endsTransaction(sql), false, JSON.stringify(sql))
    }
  })
})
