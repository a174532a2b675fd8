"""``conflictkit serve``: run the review web app (needs ``pip install 'conflictkit[web]'``)."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import click

from conflictkit.errors import MissingDependencyError, UserError


def _web_modules():
    try:
        import uvicorn

        from conflictkit.web.app import Settings, create_app, list_presets
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("starlette", "uvicorn", "multipart", "python_multipart"):
            raise MissingDependencyError(
                f"conflictkit serve needs {exc.name}: pip install 'conflictkit[web]'"
            ) from None
        raise
    return uvicorn, Settings, create_app, list_presets


def _bind(host: str, port: int) -> socket.socket:
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
        sock.listen(128)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --host or --port") from None
    sock.set_inheritable(True)
    return sock


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; anything but loopback needs a token.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port (0 picks a free one).")
@click.option("--config", "config_path", default=None, metavar="FILE|PRESET", help="Default configuration (else the offline preset).")
@click.option("--token", default=None, envvar="CONFLICTKIT_TOKEN", help="Access token required on every request [env CONFLICTKIT_TOKEN].")
@click.option("--max-upload-mb", default=20.0, show_default=True, type=click.FloatRange(min=0, min_open=True), help="Largest upload accepted (both documents together).")
@click.option("--db", "db_path", default=None, type=click.Path(dir_okay=False, path_type=Path), help="Review database (default: reviews.sqlite in the cache dir).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Comparisons run at the same time.")
# the defaults are conflictkit.web.workers.MEMORY_MB and SECONDS, not imported here: the CLI starts without the web app
@click.option("--job-memory-mb", default=4096, show_default=True, type=click.IntRange(256),
              help="Memory (address space, models included) of each comparison's worker process; a job that needs more fails.")
@click.option("--job-timeout", default=600.0, show_default=True, type=click.FloatRange(min=1),
              help="Seconds a comparison may run before its worker process is stopped and the job fails.")
def serve(host: str, port: int, config_path: str | None, token: str | None, max_upload_mb: float, db_path: Path | None,
          workers: int, job_memory_mb: int, job_timeout: float) -> None:
    """Run the review web app: upload two documents (or a batch against one reference), review the findings side by side.

    Comparisons, decisions and the job queue are kept in a SQLite file and survive a restart: a
    comparison that was running when the server stopped runs again at the next start. Each upload is
    read, and each comparison run, in a worker process with a memory and a time limit, so no document
    can take the server down; a client has 10 s to send a request's headers.
    """
    uvicorn, Settings, create_app, list_presets = _web_modules()
    from conflictkit.store import cache_dir
    from conflictkit.web.security import is_loopback

    if token is not None and not token.strip():
        raise UserError("--token (or CONFLICTKIT_TOKEN) is blank: give a real secret, e.g. $(python -c 'import secrets; print(secrets.token_urlsafe())')")
    if not is_loopback(host):
        if token is None:
            raise UserError(f"binding {host} makes the app reachable from other machines; give --token or set CONFLICTKIT_TOKEN")
        click.echo(f"conflictkit: warning: serving on {host}, reachable from other machines; every request needs the token", err=True)
    from conflictkit.web.app import preset_availability

    availability = preset_availability(list_presets())  # the form offers only presets that can run here
    settings = Settings(
        db_path=db_path or cache_dir() / "reviews.sqlite", config_path=config_path, token=token,
        max_upload_bytes=int(max_upload_mb * 1_000_000), host=host, workers=workers,
        job_memory_mb=job_memory_mb, job_timeout=job_timeout,
        presets=[name for name, why in availability.items() if why is None],
        unavailable={name: why for name, why in availability.items() if why is not None},
    )
    app = create_app(settings)
    sock = _bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    click.echo(f"conflictkit: serving on {url}" + (f"?token={token}" if token else "") + " (Ctrl-C to stop)")
    click.echo(f"conflictkit: reviews in {settings.db_path}")
    sys.stdout.flush()
    from conflictkit.web.timeouts import TimedH11Protocol

    server = uvicorn.Server(uvicorn.Config(app, log_level=os.environ.get("CONFLICTKIT_LOG", "warning"), access_log=False,
                                           lifespan="off", http=TimedH11Protocol))
    try:
        server.run(sockets=[sock])
    finally:
        app.conflictkit.runner.shutdown()
