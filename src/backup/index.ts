export { type BackupOptions, type BackupResult, dumpFileName, keepNewest, runBackup } from './run-backup.js'
export { checkDumpVersion, toolMajor } from './pg-tools.js'
