-- What a worker's heartbeat says about its handlers' connections (docs/running-the-worker.md#stuck-handlers):
-- how many handler statements are waiting past their own deadline (or, without one, past the job
-- timeout), so nothing will end them, and since when some have. `aizk status --check` reads them.
ALTER TABLE aizk_worker ADD COLUMN IF NOT EXISTS stuck_calls INT NOT NULL DEFAULT 0;
ALTER TABLE aizk_worker ADD COLUMN IF NOT EXISTS stuck_since TIMESTAMPTZ;
