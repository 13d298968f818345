/** The LISTEN connection's statements. */
import { NOTIFY_CHANNEL } from '../notify.js'
import { CONTROL_CHANNEL } from '../pause.js'

export const LISTEN_JOBS = `LISTEN ${NOTIFY_CHANNEL}`

export const LISTEN_CONTROL = `LISTEN ${CONTROL_CHANNEL}`
