"""Drives the real PgQueuer (imported from its source folder through PYTHONPATH) for the
interop suite. Every command prints JSON lines on stdout, so the TypeScript side can wait on
them. Usage: pgq.py DSN COMMAND [options]

  install                          Queries.install(): PgQueuer's own schema
  durability LEVEL                 Queries.alter_durability() to volatile, balanced or durable (`pgq durability`)
  enqueue ENTRYPOINT [--payload-hex H | --null] [--priority N] [--dedupe-key K] [--skip]
  enqueue ENTRYPOINT --many '[{"hex": H|null, "key": K|null, "priority": N, "delay": S}, ...]' [--skip]
  requeue ID...                    Queries.requeue_jobs
  cancel ID...                     Queries.mark_job_as_cancelled (logs `canceled`, deletes, notifies)
  job-status ID...                 Queries.job_status (from the log)
  percentiles                      Queries.job_duration_percentiles over the last hour
  log ID...                        Queries.queue_log rows of these jobs, tracebacks parsed by PgQueuer
  schedule ENTRYPOINT EXPRESSION   SchedulerManager: registers the schedule, runs a moment, stops
  worker ENTRYPOINT... [--limit N] [--sleep S] [--fail] [--hold] [--heartbeat-timeout S]
                                   QueueManager.run until SIGTERM: one line per job start/end
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from datetime import timedelta

import asyncpg

from pgqueuer.adapters.drivers.asyncpg import AsyncpgDriver
from pgqueuer.adapters.persistence import qb
from pgqueuer.core.qm import QueueManager
from pgqueuer.core.sm import SchedulerManager
from pgqueuer.domain.errors import DuplicateJobError
from pgqueuer.domain.models import Job
from pgqueuer.queries import Queries


def emit(**fields: object) -> None:
    print(json.dumps(fields, default=str), flush=True)


async def connect(dsn: str) -> Queries:
    return Queries(AsyncpgDriver(await asyncpg.connect(dsn)))


async def cmd_install(dsn: str, _: argparse.Namespace) -> None:
    await (await connect(dsn)).install()
    emit(event="installed")


async def cmd_uninstall(dsn: str, _: argparse.Namespace) -> None:
    await (await connect(dsn)).uninstall()
    emit(event="uninstalled")


async def cmd_durability(dsn: str, a: argparse.Namespace) -> None:
    settings = qb.DBSettings(durability=qb.Durability(a.level))
    env = qb.QueryBuilderEnvironment(settings=settings)
    await Queries(AsyncpgDriver(await asyncpg.connect(dsn)), qbe=env).alter_durability()
    emit(event="durability", level=a.level)


async def cmd_enqueue(dsn: str, a: argparse.Namespace) -> None:
    q = await connect(dsn)
    if a.many is not None:
        # One batch: a JSON list of {"hex": str | null, "key": str | null, "priority": int,
        # "delay": seconds (PgQueuer's execute_after), optional}.
        items = json.loads(a.many)
        entrypoint: str | list[str] = [a.entrypoint] * len(items)
        payload: bytes | None | list[bytes | None] = [
            None if i.get("hex") is None else bytes.fromhex(i["hex"]) for i in items
        ]
        priority: int | list[int] = [int(i.get("priority", 0)) for i in items]
        dedupe_key: str | None | list[str | None] = [i.get("key") for i in items]
        execute_after: list[timedelta | None] | None = [
            None if i.get("delay") is None else timedelta(seconds=float(i["delay"])) for i in items
        ]
    else:
        entrypoint = a.entrypoint
        payload = None if a.null else bytes.fromhex(a.payload_hex or "")
        priority = a.priority
        dedupe_key = a.dedupe_key
        execute_after = None
    try:
        ids = await q.enqueue(
            entrypoint,
            payload,
            priority=priority,
            dedupe_key=dedupe_key,
            execute_after=execute_after,
            on_conflict="skip" if a.skip else "raise",
        )
    except DuplicateJobError as e:
        emit(event="duplicate", error=type(e).__name__, keys=e.dedupe_key)
        return
    emit(event="enqueued", ids=[None if i is None else int(i) for i in ids])


async def cmd_requeue(dsn: str, a: argparse.Namespace) -> None:
    await (await connect(dsn)).requeue_jobs([int(i) for i in a.ids])
    emit(event="requeued", ids=a.ids)


async def cmd_cancel(dsn: str, a: argparse.Namespace) -> None:
    await (await connect(dsn)).mark_job_as_cancelled([int(i) for i in a.ids])
    emit(event="canceled", ids=a.ids)


async def cmd_job_status(dsn: str, a: argparse.Namespace) -> None:
    rows = await (await connect(dsn)).job_status([int(i) for i in a.ids])
    emit(event="job_status", statuses={str(i): s for i, s in rows})


async def cmd_percentiles(dsn: str, _: argparse.Namespace) -> None:
    rows = await (await connect(dsn)).job_duration_percentiles(timedelta(hours=1))
    emit(event="percentiles", rows=[{"entrypoint": r.entrypoint, "completed": r.completed} for r in rows])


async def cmd_log(dsn: str, a: argparse.Namespace) -> None:
    wanted = {int(i) for i in a.ids}
    rows = [r for r in await (await connect(dsn)).queue_log() if int(r.job_id) in wanted]
    emit(event="log", rows=[
        {"job_id": int(r.job_id), "status": r.status, "entrypoint": r.entrypoint,
         "traceback": None if r.traceback is None else r.traceback.model_dump(mode="json")}
        for r in rows
    ])


async def cmd_schedule(dsn: str, a: argparse.Namespace) -> None:
    sm = SchedulerManager(await connect(dsn))

    @sm.schedule(a.entrypoint, a.expression)
    async def tick(schedule: object) -> None:
        emit(event="tick")

    async def stop_soon() -> None:
        await asyncio.sleep(a.seconds)
        sm.shutdown.set()

    stopper = asyncio.create_task(stop_soon())
    await sm.run()
    await stopper
    emit(event="scheduled", entrypoint=a.entrypoint)


async def cmd_worker(dsn: str, a: argparse.Namespace) -> None:
    qm = QueueManager(await connect(dsn))

    def make_handler(name: str):
        async def handle(job: Job) -> None:
            emit(event="start", id=int(job.id), entrypoint=name, at=time.time(),
                 payload_hex=None if job.payload is None else job.payload.hex())
            await asyncio.sleep(a.sleep)
            if a.fail:
                emit(event="fail", id=int(job.id), entrypoint=name, at=time.time())
                raise RuntimeError(f"job {job.id} failed on purpose")
            emit(event="end", id=int(job.id), entrypoint=name, at=time.time())

        return handle

    for name in a.entrypoints:
        qm.entrypoint(name, concurrency_limit=a.limit, on_failure="hold" if a.hold else "delete")(make_handler(name))

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, qm.shutdown.set)
    loop.add_signal_handler(signal.SIGINT, qm.shutdown.set)
    emit(event="ready", queue_manager_id=str(qm.queue_manager_id))
    await qm.run(
        batch_size=a.batch_size,
        dequeue_timeout=timedelta(seconds=a.poll),
        heartbeat_timeout=timedelta(seconds=a.heartbeat_timeout),
    )
    emit(event="stopped")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("dsn")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("install")
    sub.add_parser("uninstall")
    d = sub.add_parser("durability")
    d.add_argument("level", choices=["volatile", "balanced", "durable"])
    e = sub.add_parser("enqueue")
    e.add_argument("entrypoint")
    e.add_argument("--payload-hex")
    e.add_argument("--null", action="store_true")
    e.add_argument("--priority", type=int, default=0)
    e.add_argument("--dedupe-key")
    e.add_argument("--skip", action="store_true")
    e.add_argument("--many")
    r = sub.add_parser("requeue")
    r.add_argument("ids", nargs="+")
    c = sub.add_parser("cancel")
    c.add_argument("ids", nargs="+")
    s = sub.add_parser("job-status")
    s.add_argument("ids", nargs="+")
    sub.add_parser("percentiles")
    lg = sub.add_parser("log")
    lg.add_argument("ids", nargs="+")
    sc = sub.add_parser("schedule")
    sc.add_argument("entrypoint")
    sc.add_argument("expression")
    sc.add_argument("--seconds", type=float, default=1.0)
    w = sub.add_parser("worker")
    w.add_argument("entrypoints", nargs="+")
    w.add_argument("--limit", type=int, default=0)
    w.add_argument("--sleep", type=float, default=0.0)
    w.add_argument("--fail", action="store_true")
    w.add_argument("--hold", action="store_true")
    w.add_argument("--batch-size", type=int, default=10)
    w.add_argument("--poll", type=float, default=30.0)
    w.add_argument("--heartbeat-timeout", type=float, default=30.0)
    a = p.parse_args()
    handler = {
        "install": cmd_install,
        "uninstall": cmd_uninstall,
        "durability": cmd_durability,
        "enqueue": cmd_enqueue,
        "requeue": cmd_requeue,
        "cancel": cmd_cancel,
        "job-status": cmd_job_status,
        "percentiles": cmd_percentiles,
        "log": cmd_log,
        "schedule": cmd_schedule,
        "worker": cmd_worker,
    }[a.command]
    asyncio.run(handler(a.dsn, a))


if __name__ == "__main__":
    sys.exit(main())
