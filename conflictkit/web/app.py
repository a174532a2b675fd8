"""The ``conflictkit serve`` application: Starlette routes behind :class:`~conflictkit.web.security.Guard`.

Everything is addressed by id (comparisons, jobs) or by a fixed name (static files); no request
ever names a path on disk. Uploads are checked with the same loader as ``compare`` before a job
starts, so a bad file is answered at once on the upload page; the check and the comparison run in
worker processes (:mod:`conflictkit.web.workers`), never in the server's own.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from conflictkit.config import Config, load_config, preset_names
from conflictkit.engine import Engine
from conflictkit.errors import ConflictkitError
from conflictkit.report.html import TEMPLATES as REPORT_TEMPLATES
from conflictkit.web import export, pages
from conflictkit.web.jobs import Runner
from conflictkit.web.playbooks import entry_ids, is_review
from conflictkit.web.reviews import ReviewStore
from conflictkit.web.security import BodyTooLarge, Guard, is_loopback, too_large_message
from conflictkit.web.uploads import MAX_BATCH
from conflictkit.web.workers import MEMORY_MB, SECONDS, WorkerLimits, check_upload

STATIC = Path(__file__).resolve().parent / "static"
# The only files served: a fixed name -> (file, media type). Nothing else on disk is reachable.
STATIC_FILES = {
    "app.css": (STATIC / "app.css", "text/css"),
    "app.js": (STATIC / "app.js", "text/javascript"),
    "report.css": (REPORT_TEMPLATES / "report.css", "text/css"),
    "report.js": (REPORT_TEMPLATES / "report.js", "text/javascript"),
    "portfolio.css": (REPORT_TEMPLATES / "portfolio.css", "text/css"),
}
DEFAULT_KEY = "default"


@dataclass
class Settings:
    """What ``conflictkit serve`` was started with."""

    db_path: Path
    config_path: str | None = None
    token: str | None = None
    max_upload_bytes: int = 20_000_000
    host: str = "127.0.0.1"
    presets: list[str] = field(default_factory=list)
    workers: int = 1
    unavailable: dict[str, str] = field(default_factory=dict)
    """Presets that cannot run here, with why: shown in the form, not offered."""
    job_memory_mb: int = MEMORY_MB
    """Address space of each worker process (models included): a job that needs more fails, the server lives."""
    job_timeout: float = SECONDS
    """Seconds one comparison (or the check of one upload) may take before its worker is killed."""

    @property
    def worker_limits(self) -> WorkerLimits:
        return WorkerLimits(memory_bytes=self.job_memory_mb * 2**20, seconds=self.job_timeout)


def unavailable_reason(config: Config) -> str | None:
    """Why a configuration cannot run on this machine (a backend's dependency, model or key missing), or None.

    Builds the backends (cheap: options are validated, nothing is loaded) and asks each.
    """
    try:
        engine = Engine(config)
    except ConflictkitError as exc:
        return str(exc)
    for stage, component in engine.components.items():
        problem = component.unavailable() if component is not None else None
        if problem:
            return f"{stage} {component.name}: {problem}"
    return None


def preset_availability(names: list[str]) -> dict[str, str | None]:
    """Each preset's :func:`unavailable_reason` (a preset that does not load names why)."""
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = unavailable_reason(load_config(name))
        except ConflictkitError as exc:
            out[name] = str(exc)
    return out


def list_presets() -> list[str]:
    """Names of the presets a user may choose (the shipped ones and $CONFLICTKIT_CONFIGS)."""
    return preset_names()


class App:
    """State shared by the routes: settings, review store, the job runner."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.reviews = ReviewStore(settings.db_path)
        self.default_config = load_config(settings.config_path)  # a bad --config fails before serving
        self.runner = Runner(self.reviews, self.config_for, workers=settings.workers, after_store=self._prepare_view,
                             limits=settings.worker_limits)

    def _prepare_view(self, cid: str) -> None:
        # The documents are rendered once here, on the worker thread, so the first view is as fast as the next.
        from conflictkit.report.html import render_panes

        comparison = self.reviews.get(cid)
        if comparison is not None and is_review(comparison.report):
            from conflictkit.playbook.html import render_review_view

            render_review_view(comparison.report, comparison.reference_text, comparison.input_text)
        elif comparison is not None:
            render_panes(comparison.report, {"reference": comparison.reference_text, "input": comparison.input_text})

    def choices(self) -> list[tuple[str, str]]:
        label = f"server default ({self.settings.config_path or 'offline'})"
        return [(DEFAULT_KEY, label)] + [(f"preset:{n}", n) for n in self.settings.presets]

    def config_for(self, key: str) -> Config:
        """The configuration chosen in the form, checked to run here before any job starts."""
        if key == DEFAULT_KEY:
            config = self.default_config
        elif key.startswith("preset:") and key[7:] in self.settings.unavailable:
            raise ConflictkitError(f"preset {key[7:]!r} cannot run on this server: {self.settings.unavailable[key[7:]]}")
        elif key.startswith("preset:") and key[7:] in self.settings.presets:
            config = load_config(key[7:])
        else:
            raise ConflictkitError(f"unknown configuration {key!r}; choose one from the list")
        problem = unavailable_reason(config)
        if problem:
            raise ConflictkitError(f"this configuration cannot run on this server: {problem}")
        return config

    # -- routes ---------------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        return HTMLResponse(self._home())

    def _home(self, error: str | None = None) -> str:
        return pages.home(self.choices(), self.reviews.list(), self.settings.max_upload_bytes, error,
                          unavailable=self.settings.unavailable)

    async def compare(self, request: Request) -> Response:
        """One input: a comparison. Several inputs, or a .zip of them: a batch against the one reference."""
        try:
            form = await request.form(max_files=MAX_BATCH + 1, max_fields=4)
        except BodyTooLarge as exc:
            return HTMLResponse(self._home(str(exc)), status_code=413)
        try:
            (reference,) = await self._documents([form.get("reference")], "reference")
            inputs = await self._documents(form.getlist("input"), "input")
            if len(inputs) > MAX_BATCH:
                raise ConflictkitError(f"{len(inputs)} input documents; upload at most {MAX_BATCH} at a time")
            key = str(form.get("config") or DEFAULT_KEY)
            await run_in_threadpool(self.config_for, key)
        except BodyTooLarge as exc:
            return HTMLResponse(self._home(str(exc)), status_code=413)
        except ConflictkitError as exc:
            return HTMLResponse(self._home(str(exc)), status_code=400)
        finally:
            await form.close()  # drop the spooled upload files now, whatever happened
        if len(inputs) == 1:
            job = self.runner.submit(key, reference, inputs[0])
            return RedirectResponse(f"/jobs/{job.id}", status_code=303)
        batch_id = secrets.token_hex(8)
        for document in inputs:
            self.runner.submit(key, reference, document, batch_id=batch_id)
        return RedirectResponse(f"/batches/{batch_id}", status_code=303)

    async def _documents(self, uploads: list, side: str) -> list:
        files = [u for u in uploads if isinstance(u, UploadFile) and u.filename]
        if not files or (side == "reference" and len(files) != 1):
            raise ConflictkitError(f"choose the {side} document to upload")
        documents = []
        for upload in files:
            data = await upload.read()
            if len(data) > self.settings.max_upload_bytes:
                raise BodyTooLarge(too_large_message(self.settings.max_upload_bytes))
            documents.extend(await run_in_threadpool(
                check_upload, upload.filename, data, self.default_config.limits, self.settings.max_upload_bytes,
                self.settings.worker_limits, side == "reference"))
        if side == "reference" and len(documents) != 1:
            raise ConflictkitError("the reference must be one document, not a zip of several")
        return documents

    async def check_config(self, request: Request) -> Response:
        """Whether the configuration chosen in the form can run here: the upload page asks before sending any file."""
        try:
            await run_in_threadpool(self.config_for, request.query_params.get("key") or DEFAULT_KEY)
        except ConflictkitError as exc:
            return JSONResponse({"ok": False, "error": str(exc)})
        return JSONResponse({"ok": True})

    async def batch(self, request: Request) -> Response:
        jobs = self.runner.batch(request.path_params["batch_id"])
        if not jobs:
            return HTMLResponse(pages.message_page("Not found", "no such batch"), 404)
        portfolio = await run_in_threadpool(self._portfolio, jobs)
        return HTMLResponse(pages.batch_page(request.path_params["batch_id"], jobs, portfolio))

    def _portfolio(self, jobs: list) -> str:
        """The batch as a portfolio: its documents by risk, a heat map of documents x clause subjects."""
        from conflictkit.batch.portfolio import PortfolioRow, render_portfolio
        from conflictkit.batch.worker import digest_findings

        rows, labels = [], {}
        for job in jobs:
            comparison = self.reviews.get(job.comparison) if job.state == "done" and job.comparison else None
            if comparison is None:
                status = "failed" if job.state == "failed" else "pending"
                rows.append(PortfolioRow(name=job.input_name, status=status, detail=job.error or ""))
                continue
            labels = labels or (comparison.report.get("materiality") or {}).get("subjects") or {}
            rows.append(PortfolioRow(name=job.input_name, title=comparison.name, href=f"/comparisons/{comparison.id}",
                                     findings=digest_findings(comparison.report)[1]))
        return render_portfolio(rows, labels)

    async def batch_status(self, request: Request) -> Response:
        jobs = self.runner.batch(request.path_params["batch_id"])
        if not jobs:
            return JSONResponse({"error": "no such batch"}, 404)
        return JSONResponse({"jobs": [j.to_dict() for j in jobs]})

    async def job(self, request: Request) -> Response:
        job = self.runner.get(request.path_params["job_id"])
        if job is None:
            return HTMLResponse(pages.message_page("Not found", "no such comparison in progress"), 404)
        if job.state == "done":
            return RedirectResponse(f"/comparisons/{job.comparison}", status_code=303)
        return HTMLResponse(pages.job_page(job))

    async def job_status(self, request: Request) -> Response:
        job = self.runner.get(request.path_params["job_id"])
        if job is None:
            return JSONResponse({"error": "no such job"}, 404)
        return JSONResponse(job.to_dict())

    async def comparison(self, request: Request) -> Response:
        found = await run_in_threadpool(self._load, request.path_params["cid"])
        if found is None:
            return self._missing()
        comparison, decisions = found
        try:
            body = await run_in_threadpool(pages.results_page, comparison, decisions)
        except ConflictkitError as exc:
            return HTMLResponse(pages.message_page("Cannot show this comparison", str(exc)), 500)
        return HTMLResponse(body)

    def _load(self, cid: str):
        comparison = self.reviews.get(cid)
        return None if comparison is None else (comparison, self.reviews.decisions(cid))

    def _missing(self) -> Response:
        return HTMLResponse(pages.message_page("Not found", "no such comparison"), 404)

    async def decide(self, request: Request) -> Response:
        cid, fid = request.path_params["cid"], request.path_params["fid"]
        comparison = self.reviews.get(cid)
        if comparison is None or fid not in entry_ids(comparison.report):
            return JSONResponse({"error": "no such comparison or finding"}, 404)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send the decision as application/json"}, 415)
        try:
            data = json.loads(await request.body())
            if not isinstance(data, dict):
                raise ValueError("not an object")
            note = data.get("note")
            if note is not None and not isinstance(note, str):
                raise ValueError("note must be a string")
            decision = self.reviews.decide(cid, fid, data.get("status"), note, set_status="status" in data)
        except BodyTooLarge as exc:
            return JSONResponse({"error": str(exc)}, 413)
        except (ValueError, ConflictkitError) as exc:
            return JSONResponse({"error": f"bad decision: {exc}"}, 400)
        return JSONResponse(decision)

    async def import_review(self, request: Request) -> Response:
        """POST a review file (``conflictkit.review/1``, e.g. exported from a report.html): its decisions and
        notes are stored on the findings of this comparison they belong to."""
        cid = request.path_params["cid"]
        comparison = self.reviews.get(cid)
        if comparison is None:
            return JSONResponse({"error": "no such comparison"}, 404)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send the review file as application/json"}, 415)
        try:
            data = json.loads(await request.body())
            decisions, skipped = export.imported_decisions(data, comparison)
            stored = {fid: await run_in_threadpool(self.reviews.decide, cid, fid, d["status"], d["note"])
                      for fid, d in decisions.items()}
        except BodyTooLarge as exc:
            return JSONResponse({"error": str(exc)}, 413)
        except ValueError as exc:
            return JSONResponse({"error": f"not JSON: {exc}"}, 400)
        except ConflictkitError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        message = f"imported {len(stored)} decision{'s' * (len(stored) != 1)}"
        if skipped:
            message += f"; skipped {len(skipped)} ({'; '.join(skipped[:3])}{'...' if len(skipped) > 3 else ''})"
        return JSONResponse({"imported": len(stored), "skipped": skipped, "decisions": stored, "message": message})

    async def manage(self, request: Request) -> Response:
        """POST ``{"name": ...}`` renames a comparison; DELETE deletes it with its review."""
        cid = request.path_params["cid"]
        if request.method == "DELETE":
            deleted = await run_in_threadpool(self.reviews.delete, cid)
            return JSONResponse({"deleted": cid}) if deleted else JSONResponse({"error": "no such comparison"}, 404)
        if self.reviews.get(cid) is None:
            return JSONResponse({"error": "no such comparison"}, 404)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send the new name as application/json"}, 415)
        try:
            data = json.loads(await request.body())
            if not isinstance(data, dict) or not isinstance(data.get("name"), str):
                raise ValueError('send {"name": "..."}')
            name = await run_in_threadpool(self.reviews.rename, cid, data["name"])
        except BodyTooLarge as exc:
            return JSONResponse({"error": str(exc)}, 413)
        except (ValueError, ConflictkitError) as exc:
            return JSONResponse({"error": f"bad name: {exc}"}, 400)
        return JSONResponse({"id": cid, "name": name})

    async def export(self, request: Request) -> Response:
        cid, fmt = request.path_params["cid"], request.path_params["fmt"]
        comparison = self.reviews.get(cid)
        if comparison is None or fmt not in ("json", "md", "html"):
            return self._missing()
        decisions = self.reviews.decisions(cid)
        render = {"json": export.review_json, "md": export.review_markdown, "html": export.review_html}[fmt]
        media = {"json": "application/json", "md": "text/markdown; charset=utf-8", "html": "text/html; charset=utf-8"}[fmt]
        body = await run_in_threadpool(render, comparison, decisions)
        headers = {"content-disposition": f'attachment; filename="review-{cid}.{fmt}"'}
        if fmt == "html":
            # The file carries its own hash-pinned policy; ours would block its inline script.
            headers["content-security-policy"] = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
        return Response(body, media_type=media, headers=headers)

    async def static(self, request: Request) -> Response:
        entry = STATIC_FILES.get(request.path_params["name"])
        if entry is None:
            return Response("not found", 404, media_type="text/plain")
        path, media = entry
        return Response(path.read_bytes(), media_type=media, headers={"cache-control": "no-cache"})


def create_app(settings: Settings):
    """The ASGI application for ``settings``: Starlette routes wrapped in the request guard."""
    app = App(settings)
    routes = [
        Route("/", app.home),
        Route("/compare", app.compare, methods=["POST"]),
        Route("/api/config-check", app.check_config),
        Route("/jobs/{job_id}", app.job),
        Route("/api/jobs/{job_id}", app.job_status),
        Route("/batches/{batch_id}", app.batch),
        Route("/api/batches/{batch_id}", app.batch_status),
        Route("/comparisons/{cid}", app.comparison),
        Route("/comparisons/{cid}/export.{fmt}", app.export),
        Route("/api/comparisons/{cid}/decisions/{fid}", app.decide, methods=["POST"]),
        Route("/api/comparisons/{cid}/review", app.import_review, methods=["POST"]),
        Route("/api/comparisons/{cid}", app.manage, methods=["POST", "DELETE"]),
        Route("/static/{name}", app.static),
    ]
    starlette = Starlette(routes=routes)
    starlette.state.conflictkit = app
    guarded = Guard(starlette, token=settings.token, max_body=settings.max_upload_bytes, loopback=is_loopback(settings.host),
                    host=settings.host)
    guarded.conflictkit = app
    return guarded
