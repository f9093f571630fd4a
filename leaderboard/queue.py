"""The job registry: everything that runs in the queue, registered under its Celery name.

A service function becomes a job with ``@job("leaderboard.tasks.<name>")`` where it is
defined, and a service asks for it with ``that_function.enqueue(*args)``, once its
transaction has committed: no signal, listener or name table sits in between. Calling
the function itself still runs it here and now.

``GEC_TASK_MODE`` (see settings) decides where an enqueued job runs: ``celery`` sends
it to the broker by its name (``leaderboard/tasks.py`` turns every registered job into
the Celery task of that name); ``thread`` (embedded mode) hands it to one worker
thread of this process, so an upload returns at once and the page updates live;
``sync`` runs it inline (unit tests). A job may say how it is sent (``messages``: the
fair queue, a countdown, a queue of its own) and how a failure is recorded on its row
(``on_failure``, called with the first argument and the message).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Generic, NamedTuple, ParamSpec, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection

from .celery import app as celery_app

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

# Every job survives a lost worker and a database or broker hiccup (``acks_late`` with
# ``reject_on_worker_lost`` in settings hands a killed worker's job to another worker).
INFRASTRUCTURE_ERRORS = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
RETRIED = {
    "acks_late": True,
    "autoretry_for": INFRASTRUCTURE_ERRORS,
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "max_retries": 8,
}
TimeBudgetSpent = SoftTimeLimitExceeded  # a job ran past the soft time limit its message carried


class RetryLater(Exception):
    """Raised by a job that cannot run yet (another worker holds its row): Celery runs
    it again after ``countdown`` seconds, however often that takes."""

    def __init__(self, countdown: float):
        super().__init__(f"retry in {countdown} s")
        self.countdown = countdown


class Message(NamedTuple):
    """One message to the broker: the job's arguments and Celery's ``send_task`` options
    (``countdown``, ``queue``, ``kwargs``, time limits)."""

    args: tuple
    options: dict


class Job(Generic[P, R]):
    """A registered job: call it to run it here, :meth:`enqueue` it to run it in the queue."""

    def __init__(
        self,
        run: Callable[P, R],
        name: str,
        *,
        messages: Callable[..., Iterable[Message]] | None = None,
        on_failure: Callable[[Any, str], object] | None = None,
        task_options: dict | None = None,
    ):
        self.run, self.name = run, name
        self.messages = messages or (lambda *args: [Message(args, {})])
        self.on_failure = on_failure or (lambda first, message: log.error("%s(%s): %s", name, first, message))
        self.task_options = {**RETRIED, **(task_options or {})}
        self.__doc__, self.__name__ = run.__doc__, getattr(run, "__name__", name)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.run(*args, **kwargs)

    def enqueue(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Run the job where ``GEC_TASK_MODE`` says. A broker failure is logged, not raised:
        the row is already committed as queued and the sweeper will ask again."""
        mode = settings.GEC_TASK_MODE
        if mode == "celery":
            try:
                for message in self.messages(*args, **kwargs):
                    self.send(message)
            except Exception:
                log.exception("could not queue %s%s; the sweeper will", self.name, args)
        elif mode == "thread":
            background().submit(self.run_in_thread, *args, **kwargs)
        else:
            self.run(*args, **kwargs)

    def send(self, message: Message) -> None:
        """One message to the broker, under the job's Celery name."""
        celery_app.send_task(self.name, message.args, **message.options)

    def run_in_thread(self, *args, **kwargs) -> None:
        """The embedded mode's run: its own database connection, a failure kept on the row."""
        close_old_connections()
        try:
            self.run(*args, **kwargs)
        except Exception as error:
            log.exception("%s%s failed", self.name, args)
            self.on_failure(args[0] if args else None, f"internal error: {error}")
        finally:
            connection.close()


REGISTRY: dict[str, Job] = {}


def job(
    name: str,
    *,
    messages: Callable[..., Iterable[Message]] | None = None,
    on_failure: Callable[[Any, str], object] | None = None,
    **task_options,
) -> Callable[[Callable[P, R]], Job[P, R]]:
    """Register the decorated function as the job ``name`` (its Celery task name);
    ``task_options`` are Celery's (time limits), over :data:`RETRIED`."""

    def register(run: Callable[P, R]) -> Job[P, R]:
        if name in REGISTRY:
            raise ValueError(f"two jobs are named {name}")
        registered = Job(run, name, messages=messages, on_failure=on_failure, task_options=task_options)
        REGISTRY[name] = registered
        return registered

    return register


def runs_inline() -> bool:
    """Jobs run inline, in the caller's thread and transaction (``GEC_TASK_MODE=sync``)."""
    return settings.GEC_TASK_MODE not in ("celery", "thread")


def queue_option(queue: str) -> dict:
    """``send_task``'s options for a named queue; none for the default one."""
    return {"queue": queue} if queue else {}


_executor: ThreadPoolExecutor | None = None


def background() -> ThreadPoolExecutor:
    """The embedded mode's single job thread (one job at a time, like one worker)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scoring")
    return _executor


def wait_for_background() -> None:
    """Block until every job handed to the thread so far is done (commands, tests)."""
    if _executor is not None:
        done: Future = _executor.submit(lambda: None)
        done.result()
