/** aizk's own job inventory: importing this module declares every built-in job. */
export {}
