export { Scheduler, type SchedulerOptions, type FireResult, type UpcomingFire } from './scheduler.js'
export { fanOut, type FanOutResult } from './fan-out.js'
export { fromPgqueuerExpression, nextFireAfter, nextFires, toPgqueuerExpression, validateCron } from '../cron.js'
