"""gradeserver: grading over HTTP (aiohttp), for trainers configured for an HTTP sandbox.

- ``POST /run_code`` and ``POST /submit``: SandboxFusion's API (its request and response
  fields, with its meanings: see grading.service.fusion), so a trainer set up for SandboxFusion
  changes only the URL. ``/submit`` grades CommonOJ-style ``config.provided_data.test``
  cases (``input.stdin``/``output.stdout``).
- ``POST /grade``: ours; one item or a list, each ``problem_id`` (the served dataset) or
  ``tests``, with ``completion`` (and optionally ``language``); each answered as gradecode
  writes a line.
- ``GET /health``, ``GET /metrics`` (Prometheus text).

Requests (of any size) wait for one of ``jobs`` graders; when ``queue`` requests already
wait, a new one gets ``504`` (SandboxFusion's endpoints) or ``503`` (ours) with
``Retry-After``. Bodies over ``MAX_BODY`` bytes get ``413``; a body that is no valid
request (a field of the wrong type, a time over ``MAX_SECONDS``, a lone surrogate, JSON
nested too deeply, a body not sent within ``body_seconds``) gets ``400`` with a JSON
``error``; so does a /grade list of more than ``MAX_ITEMS`` items. A /grade item that
cannot be graded (no completion, tests in no shape, a bad limit or language) is answered
in its place with status ``bad_row`` and why (``on_bad_row`` "raise": the request's 400);
its completion is read as ``compute_score`` reads one (null, a chat's messages). A
list's items enter the workers ``jobs`` at a time (a request behind it waits for a few
of them, not all), and connections are bounded and idle ones closed
(grading.service.connections). Grading runs in threads on one shared :class:`Grader`; shutting
down finishes what runs and closes every sandbox."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from problemtools_py.grading import runfiles
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.problems import Fetched
from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.grading.rewardargs import RewardError, completion_text
from problemtools_py.grading.service import fusion
from problemtools_py.grading.service.backends import LocalWorkers, Work, Workers, grade_or_unknown
from problemtools_py.grading.service.connections import Connections, connection_cap
from problemtools_py.grading.service.metrics import Metrics
from problemtools_py.grading.service.requestfields import (
    BadRequest,
    by_judge,
    language_of,
    printable,
    seconds,
    stdio_cases,
    suite_of_item,
    time_limit_of,
)
from problemtools_py.grading.shapes import MAX_MEMORY_MB, memory_mb_of
from problemtools_py.grading.testrun import RunLimits

MAX_BODY = 16 << 20
MAX_ITEMS = 4096  # items of one /grade list
BODY_SECONDS = 30.0  # a body announced and not sent is given up after this long
FUSION_PATHS = ("/run_code", "/submit")
ADMITTED = ("/grade", *FUSION_PATHS)


class Service:
    def __init__(
        self,
        grader: Grader,
        queue: int,
        time_limit: float = 2.0,
        workers: Workers | None = None,
    ) -> None:
        """``grader`` reads completions; ``workers`` (by default the grader's own threads)
        grade them; ``queue`` pieces of work may wait beyond those running."""
        self.grader = grader
        self.workers: Workers = workers if workers is not None else LocalWorkers(grader)
        self.jobs = self.workers.size
        self.queue = queue
        self.time_limit = time_limit
        self.admitted = 0  # work given to the workers, waiting there or running
        self.installed = frozenset({"python3", *grader.languages()})
        self.metrics = Metrics()
        self.body_seconds = BODY_SECONDS
        self.replica = 0  # (gradeserver --replicas: which one this is)
        self.connections = Connections(connection_cap())
        self.on_bad_row = "score"  # an item that cannot be graded: flagged, or 400 ("raise")

    def app(self) -> web.Application:
        app = web.Application(
            client_max_size=MAX_BODY, middlewares=[self.connections.middleware, self._errors]
        )
        app.add_routes(
            [
                web.get("/health", self.health),
                web.get("/metrics", self.prometheus),
                web.post("/grade", self.grade),
                web.post("/run_code", self.run_code),
                web.post("/submit", self.submit),
            ]
        )
        app.on_cleanup.append(self._close)
        return app

    async def _close(self, app: web.Application) -> None:
        """At shutdown: what runs finishes, what waits is dropped."""
        await asyncio.to_thread(self.workers.close)

    @web.middleware
    async def _errors(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.metrics.requests[request.path] += 1
        try:
            if request.path in ADMITTED:
                async with self._admission(request.path):
                    response: web.StreamResponse = await handler(request)
            else:
                response = await handler(request)
            return response
        except (BadRequest, runfiles.FilesError) as exc:
            return web.json_response({"error": str(exc)}, status=400)
        except UnicodeEncodeError:  # (a lone surrogate "\ud800" is valid JSON, no text)
            why = "the request holds a string that is no valid Unicode (a lone surrogate)"
            return web.json_response({"error": why}, status=400)
        except web.HTTPException as exc:
            if exc.status == 413:
                return web.json_response({"error": "the request body is too large"}, status=413)
            raise

    @contextlib.asynccontextmanager
    async def _admission(self, path: str) -> AsyncIterator[None]:
        """One place per request, whatever its size: ``jobs`` run and ``queue`` wait; past
        that, a status with ``Retry-After`` its client retries: 504 on SandboxFusion's
        endpoints (verl's helper retries only that one; the SandboxFusion client retries
        any), 503 on ours."""
        at_once = getattr(self.workers, "wall_size", self.jobs) if path in FUSION_PATHS else 0
        if self.admitted >= max(self.jobs, at_once) + self.queue:
            self.metrics.rejected += 1
            busy = web.HTTPGatewayTimeout if path in FUSION_PATHS else web.HTTPServiceUnavailable
            raise busy(
                text=json.dumps({"error": "busy: the queue is full, retry"}),
                content_type="application/json",
                headers={"Retry-After": "1"},
            )
        self.admitted += 1
        try:
            yield
        finally:
            self.admitted -= 1

    @property
    def running(self) -> int:
        return self.workers.running

    @property
    def waiting(self) -> int:
        return max(0, self.admitted - self.workers.running)

    async def _work(self, work: Work, *args: Any, wall: bool = False) -> Any:
        """``work(grader, *args)`` on the workers (the request was admitted). The work
        goes straight into the workers' own queue (as gradecode's does), so a worker that
        finishes takes the next without waiting for this event loop. A client that goes
        away cancels what has not started. ``wall``: a run under a wall clock, on the
        workers' wall-clock threads where they have them (see backends.WALL_PER_WORKER)."""
        submit = getattr(self.workers, "submit_wall", None) if wall else None
        job = (submit or self.workers.submit)(work, *args)
        try:
            return await asyncio.shield(asyncio.wrap_future(job))
        except asyncio.CancelledError:
            job.cancel()
            raise

    async def health(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "status": "ok",
                "jobs": self.jobs,
                "running": self.running,
                "waiting": self.waiting,
                "replica": self.replica,
            }
        )

    async def prometheus(self, request: web.Request) -> web.Response:
        text = self.metrics.text(self.waiting, self.running, self.jobs, self.replica)
        return web.Response(text=text, content_type="text/plain")

    async def _json(self, request: web.Request) -> Any:
        """The body, parsed off the event loop (a 16 MiB body takes a tenth of a second,
        in which no other request would be answered)."""
        if (request.content_length or 0) > MAX_BODY:  # (said so ahead: not waited for)
            raise web.HTTPRequestEntityTooLarge(MAX_BODY, request.content_length or 0)
        try:
            body = await asyncio.wait_for(request.read(), self.body_seconds)
        except TimeoutError:
            raise BadRequest(f"the body did not arrive within {self.body_seconds:g} s") from None
        try:
            return await asyncio.to_thread(json.loads, body)
        except (ValueError, UnicodeDecodeError):
            raise BadRequest("the body is not JSON") from None
        except RecursionError:
            raise BadRequest("the body's JSON is nested too deeply") from None

    def _record(self, result: GradeResult, seconds: float) -> None:
        self.metrics.statuses[result.status] += 1
        self.metrics.tests += max(1, result.tests_run)
        self.metrics.test_seconds += seconds

    # -- ours ------------------------------------------------------------------------
    async def grade(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        items = body if isinstance(body, list) else [body]
        if not items or not isinstance(body, dict | list):
            raise BadRequest("a JSON object, or a list of them, is expected")
        if len(items) > MAX_ITEMS:
            raise BadRequest(f"at most {MAX_ITEMS} items a request (this has {len(items)})")
        # A list's items enter the workers' queue ``jobs`` at a time, so that a request
        # arriving behind a long list waits for a few of its items, never for all of them.
        window = asyncio.Semaphore(self.jobs)

        async def one(item: object) -> dict[str, Any]:
            async with window:
                try:
                    if not isinstance(item, dict):
                        raise BadRequest("each item is a JSON object")
                    return await self._grade_one(item)
                except (BadRequest, UnicodeEncodeError) as exc:
                    if self.on_bad_row == "raise":
                        raise
                    return self._bad_row(item, exc)

        results = await asyncio.gather(*(one(item) for item in items))
        answer = results if isinstance(body, list) else results[0]
        # (each says why: an id the source lacks, or a package it serves without a reward)
        unknown = sorted(
            {str(r["message"]) for r in results if r["status"] == Status.UNKNOWN_PROBLEM}
        )
        if unknown:  # the caller's mistake: 404, with the others' results kept
            return web.json_response({"error": "; ".join(unknown), "results": answer}, status=404)
        return web.json_response(answer)

    def _bad_row(self, item: object, exc: Exception) -> dict[str, Any]:
        """An item that cannot be graded (``on_bad_row`` "score"): flagged in its place,
        its fields echoed, as gradecode writes a line it cannot grade."""
        why = str(exc) if isinstance(exc, BadRequest) else "a string is no valid Unicode"
        result = GradeResult(None, Status.BAD_ROW, message=why)
        self._record(result, 0.0)
        fields = item if isinstance(item, dict) else {}  # (JSON: its keys are text)
        echoed = {k: v for k, v in fields.items() if k not in ("completion", "tests")}
        return {**printable(echoed), **result.as_dict()}

    async def _grade_one(self, item: dict[str, Any]) -> dict[str, Any]:
        if "completion" not in item:
            raise BadRequest("each item needs a completion")
        try:  # (as compute_score reads one: null, a chat's messages, lone surrogates)
            completion = completion_text(item["completion"], "completion")
        except RewardError as exc:
            raise BadRequest(str(exc)) from None
        language = language_of(item["language"]) if item.get("language") is not None else None
        tests = item.get("tests")
        try:
            memory = memory_mb_of(item)  # (the row's, if it gives one)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        start = time.perf_counter()
        if tests is not None:
            suite = suite_of_item(tests, item.get("fn_name"))
            limit = time_limit_of(item.get("time_limit"), self.time_limit)
            judge = item.get("judge_json")
            if isinstance(judge, str) and judge:  # (a judged row's: see grading.own_judge)
                found = Fetched(suite.tests, limit, judge)
                result = await self._work(by_judge, found.content_key, found, completion, language)
            else:
                result = await self._work(
                    Grader.grade_tests,
                    suite.tests,
                    limit,
                    completion,
                    language,
                    suite.call,
                    memory,
                )
        elif isinstance(item.get("problem_id"), str):
            result = await self._work(
                grade_or_unknown, item["problem_id"], completion, language, memory
            )
        else:
            raise BadRequest("each item needs a problem_id or tests")
        self._record(result, time.perf_counter() - start)
        echoed = {k: v for k, v in item.items() if k not in ("completion", "tests")}
        return {**echoed, **result.as_dict()}

    # -- SandboxFusion's -----------------------------------------------------------------
    async def run_code(self, request: web.Request) -> web.Response:
        """SandboxFusion's /run_code, with its semantics (see grading.service.fusion)."""
        body = await self._json(request)
        if not isinstance(body, dict) or not isinstance(body.get("code"), str):
            raise BadRequest("run_code needs code (a string) and language")
        try:
            language = self._fusion_language(body.get("language"))
        except fusion.Unavailable as exc:
            return web.json_response(fusion.failed(str(exc)))
        stdin = body.get("stdin") or ""
        f"{body['code']}{stdin}".encode()  # (a lone surrogate: 400, see _errors)
        limits = self._run_limits(body, 10)
        files = runfiles.parse(body.get("files"), body.get("fetch_files"))
        start = time.perf_counter()
        found, fetched = await self._work(
            Grader.execute_files, body["code"], language, str(stdin), limits, files, wall=True
        )
        self.metrics.tests += 1
        self.metrics.test_seconds += time.perf_counter() - start
        compiled = language != "python3" and self.grader.compiles(language)
        return web.json_response(fusion.run_response(found, compiled, fetched))

    def _run_limits(self, fields: dict[str, Any], default: float) -> RunLimits:
        """SandboxFusion's limits of a request: run_timeout (wall-clock seconds),
        compile_timeout and memory_limit_MB (absent or 0: ours)."""
        memory = fields.get("memory_limit_MB")
        if memory in (None, 0, ""):
            memory = None
        elif not (
            isinstance(memory, int) and not isinstance(memory, bool) and 0 < memory <= MAX_MEMORY_MB
        ):
            raise BadRequest(
                f"memory_limit_MB must be a whole number of MiB in (0, {MAX_MEMORY_MB}]"
            )
        compile_seconds = fields.get("compile_timeout")
        return RunLimits(
            seconds(fields.get("run_timeout"), default, "run_timeout"),
            fusion.RUN_OUTPUT,
            wall_clock=True,
            memory_mb=memory,
            compile_seconds=None
            if compile_seconds in (None, 0, "")
            else seconds(compile_seconds, 0, "compile_timeout"),
        )

    def _fusion_language(self, name: object) -> str:
        try:
            return fusion.run_language(name, self.installed)
        except fusion.UnknownLanguage as exc:
            raise BadRequest(str(exc)) from None

    async def submit(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        config = body.get("config") if isinstance(body, dict) else None
        if not isinstance(config, dict) or not isinstance(body.get("completion"), str):
            raise BadRequest("submit needs completion and config (with provided_data)")
        body["completion"].encode()  # (a lone surrogate: 400, see _errors)
        cases = stdio_cases(config.get("provided_data"))
        try:
            language = self._fusion_language(config.get("language"))
        except fusion.Unavailable as exc:
            return web.json_response(
                {
                    "id": body.get("id"),
                    "accepted": False,
                    "extracted_code": "",
                    "tests": [],
                    "extra": {"error": str(exc)},
                }
            )
        limits = self._run_limits(config, self.time_limit)
        found = await asyncio.to_thread(self.grader.extract, body["completion"], language)
        code = found[1] if found is not None else ""
        # (no code block: the empty program runs, each case fails, as SandboxFusion's
        # check_stdio_test_cases_parallel runs what its extraction gave, "" included)
        jobs = [
            asyncio.ensure_future(
                self._work(Grader.execute, code, language, stdin, limits, wall=True)
            )
            for stdin, _ in cases
        ]
        compiled = language != "python3" and self.grader.compiles(language)
        extra = config.get("extra")
        every = isinstance(extra, dict) and bool(extra.get("run_all_cases"))
        tests = await fusion.stdio_cases(jobs, cases, compiled, every)
        accepted = bool(tests) and all(t["passed"] for t in tests)
        self.metrics.statuses["ok" if accepted else "rejected"] += 1
        return web.json_response(
            {
                "id": body.get("id"),
                "accepted": accepted,
                "extracted_code": code,
                "full_code": None,
                "test_code": None,
                "tests": tests,
                "extracted_type": "fenced" if code else "empty",
                "extra": None,
            }
        )
