/** The errors the executor gives a job's handler or its log row (public: applications match on them). */

export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError'
}

export class WorkerDiedError extends Error {
  override name = 'WorkerDiedError'
}

/** The abort reason a handler's signal carries when an operator cancels its job. */
export class JobCanceledError extends Error {
  override name = 'JobCanceledError'
}
