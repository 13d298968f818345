/** BackupJob's settings: where dumps go, how many are kept, which pg_dump. */
import { folderSetting, intSetting, settingsGroup } from '../settings-types.js'

export const backupSettings = settingsGroup({
  name: 'backup',
  title: 'Backups',
  settings: {
    backupDir: { schema: folderSetting(), description: 'Folder BackupJob writes `pg_dump` files to.' },
    backupKeep: { schema: intSetting(7, { min: 1 }), description: 'Newest backups kept.' },
    backupPgBin: { schema: folderSetting(), description: 'Folder holding `pg_dump` and `pg_restore`; unset, they are found on PATH.' },
  },
})
