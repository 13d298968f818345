/**
 * The owner check of a statement that finds a worker's picked rows by id: this worker's and still
 * picked. Wrapped in "IS TRUE" so that no index answers it and the rows are found by id through
 * the primary key, whatever the planner's statistics say: with statistics of an empty queue,
 * `queue_manager_id = $n` led the planner to pgqueuer_queue_manager_id_idx, whose entries for the
 * worker (dead ones included, which a bitmap scan never marks) grow with every job it has run
 * (docs/job-lifecycle.md#plans-that-hold-whatever-the-statistics-say).
 */
export const owned = (table: string, queueManagerId: string): string => `(${table}.queue_manager_id = ${queueManagerId} AND ${table}.status = 'picked') IS TRUE`
