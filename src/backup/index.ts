export { checkDumpVersion, toolMajor } from './pg-tools.js'
export { type BackupOptions, type BackupResult, dumpFileName, keepNewest, runBackup } from './run-backup.js'
