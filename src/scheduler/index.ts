export { fromPgqueuerExpression, nextFireAfter, nextFires, toPgqueuerExpression, validateCron } from '../cron.js'
export { type FanOutResult, fanOut } from './fan-out.js'
export { type FireResult, Scheduler, type SchedulerOptions, type UpcomingFire } from './scheduler.js'
