"""Reaching Ray: on this machine, or a cluster at ``--address``, with a deadline and one clear error.

``ray.init`` against an address it cannot use does not fail: it retries for minutes (a head that
advertises another address than the one given, a firewalled port). So the address is checked
first (its port must accept a TCP connection within ``connect_timeout_s``), then ``ray.init`` runs
with a deadline; either failure is one :class:`UserError` saying what to check. A ``ray://``
address is Ray Client, which needs ``ray[client]``: ``pip install "./backends/conflictkit-ray[client]"``.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import threading
from typing import Any
from urllib.parse import urlsplit

from conflictkit.errors import MissingDependencyError, UserError, plugin_install_hint

INSTALL_HINT = plugin_install_hint("conflictkit-ray") + " (it brings ray)"
CLIENT_HINT = 'pip install "./backends/conflictkit-ray[client]" (from a conflictkit checkout; it brings ray[client])'
CONNECT_TIMEOUT_ENV = "CONFLICTKIT_RAY_CONNECT_TIMEOUT"
DEFAULT_CONNECT_TIMEOUT_S = 60.0


def ray_module():
    try:
        import ray
    except ImportError as exc:
        raise MissingDependencyError(f"the ray batch engine needs ray ({exc}); {INSTALL_HINT}") from None
    return ray


def connect_timeout_s() -> float:
    raw = os.environ.get(CONNECT_TIMEOUT_ENV)
    try:
        value = float(raw) if raw else DEFAULT_CONNECT_TIMEOUT_S
    except ValueError:
        raise UserError(f"{CONNECT_TIMEOUT_ENV}={raw!r} is not a number of seconds") from None
    if value <= 0:
        raise UserError(f"{CONNECT_TIMEOUT_ENV} must be a positive number of seconds")
    return value


def host_port(address: str) -> tuple[str, int] | None:
    """The (host, port) an address names (``head:6379``, ``ray://head:10001``), None for ``auto``/``local``."""
    if address in ("auto", "local"):
        return None
    parts = urlsplit(address if "://" in address else f"ray-gcs://{address}")
    if not parts.hostname or parts.port is None:
        raise UserError(f"--address {address}: give HOST:PORT (e.g. 10.0.0.5:6379) or ray://HOST:PORT for Ray Client")
    return parts.hostname, parts.port


def is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_reachable(address: str, timeout_s: float) -> None:
    """Fail fast, and say so, when nothing listens at the address's port."""
    target = host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=timeout_s):
            pass
    except OSError as exc:
        raise UserError(f"cannot reach Ray at {address} ({exc.strerror or exc}); start the head with "
                        "`ray start --head` (its address is printed) or check the host, port and firewall") from None


def init(address: str | None, num_cpus: int | None, env: dict[str, str]) -> Any:
    """``ray.init`` on this machine (``address`` None) with ``num_cpus``, or on the cluster with a deadline."""
    ray = ray_module()
    timeout_s = connect_timeout_s()
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False,
                              "runtime_env": {"env_vars": env}}
    if address:
        if address.startswith("ray://"):
            try:
                import ray.util.client  # noqa: F401  (needs grpcio, from ray[client])
                import grpc  # noqa: F401
            except ImportError:
                raise MissingDependencyError(f"--address {address} is Ray Client, which needs ray[client]; {CLIENT_HINT}") from None
        check_reachable(address, timeout_s)
        target = host_port(address)
        if target is not None and is_loopback(target[0]) and not address.startswith("ray://"):
            kwargs["_node_ip_address"] = "127.0.0.1"  # a head on this machine: never swap in the external address
        kwargs["address"] = address
    else:
        # Ray started here runs its processes as children that die with the thread that started them
        # (PR_SET_PDEATHSIG): start them from the caller's thread, where there is no remote end to wait for
        try:
            ray.init(num_cpus=num_cpus, **kwargs)
        except Exception as exc:
            raise UserError(f"cannot start Ray on this machine: {_cause(exc)}") from None
        return ray
    failure: list[BaseException] = []

    def start() -> None:
        try:
            ray.init(**kwargs)
        except BaseException as exc:  # reported below, in the caller's thread
            failure.append(exc)

    # ray.init in a thread (to bound its wait) warns that it cannot set its SIGTERM handler there: expected
    logging.getLogger("ray._private.worker").setLevel(logging.ERROR)
    thread = threading.Thread(target=start, name="ray-init", daemon=True)
    thread.start()
    thread.join(timeout_s)
    where = f" at {address}" if address else ""
    if thread.is_alive():
        raise UserError(f"Ray{where} did not answer within {timeout_s:g} s; if the head runs on this machine, give its own "
                        f"address as `ray start` printed it (or start it with --node-ip-address 127.0.0.1); "
                        f"{CONNECT_TIMEOUT_ENV} sets the wait")
    if failure:
        raise UserError(f"cannot start or reach Ray{where}: {_cause(failure[0])}") from None
    return ray


def _cause(exc: BaseException) -> str:
    """The first line of the deepest cause (ray.init wraps the reason in a ConnectionError), with a hint for auth."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    first = str(exc).splitlines()[0] if str(exc) else ""
    if "AuthenticationError" in type(exc).__name__ or "InvalidAuthToken" in first:
        return ("the cluster uses token authentication: put its token in RAY_AUTH_TOKEN (or ~/.ray/auth_token) "
                "and set RAY_AUTH_MODE=token")
    return f"{type(exc).__name__}: {first[:300]}"
