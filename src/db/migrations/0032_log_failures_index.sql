-- Failures in pgqueuer_log (aizk's holds, PgQueuer's exceptions), newest first by id, for MCP's
-- failed_jobs and the dashboard (src/queue/log-read.ts): a backward walk of this partial index
-- reads just the page asked for, where the primary key would pass over every successful row and
-- pgqueuer_log_status would collect and sort every failure (docs/job-lifecycle.md).
CREATE INDEX IF NOT EXISTS pgqueuer_log_failures ON pgqueuer_log (id) WHERE status IN ('failed', 'exception');
