"""The ``ray`` batch engine: an ActorPool of workers, each with its engine built once."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import ClassVar

from conflictkit.batch.engines import BatchEngine, Result, failed, waves
from conflictkit.batch.plan import BatchPair
from conflictkit.errors import MissingDependencyError, UserError, plugin_install_hint

INSTALL_HINT = plugin_install_hint("conflictkit-ray") + " (it brings ray)"


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise MissingDependencyError(f"the ray batch engine needs ray ({exc}); {INSTALL_HINT}") from None
    return ray


class RayEngine(BatchEngine):
    """Runs pairs on Ray actors: ``address`` None starts Ray on this machine with ``workers`` CPUs."""

    name: ClassVar[str] = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        super().__init__(workers, address)
        self._started_ray = False

    def _connect(self):
        ray = _ray()
        if not ray.is_initialized():
            kwargs = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
            # workers must see the same cache (and plugins) as the driver
            env = {k: v for k, v in os.environ.items() if k.startswith(("CONFLICTKIT_", "HF_"))}
            try:
                if self.address:
                    ray.init(address=self.address, runtime_env={"env_vars": env}, **kwargs)
                else:
                    ray.init(num_cpus=self.workers, runtime_env={"env_vars": env}, **kwargs)
            except Exception as exc:  # an unreachable cluster, a bad address
                raise UserError(f"cannot start or reach Ray{f' at {self.address}' if self.address else ''}: "
                                f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from None
            self._started_ray = True
        return ray

    def run(self, pairs: Sequence[BatchPair], config_data: dict, cache: bool) -> Iterator[Result]:
        if not pairs:
            return
        ray = self._connect()
        from conflictkit.batch.worker import Worker

        actor_class = ray.remote(num_cpus=1)(Worker)
        cpus = self.workers if not self.address else int(ray.cluster_resources().get("CPU", 1))
        idle = [actor_class.remote(config_data, cache) for _ in range(max(1, min(cpus, len(pairs))))]
        pending: dict = {}  # object ref -> (pair, actor)
        try:
            for wave in waves(pairs, cache):
                queue = list(wave)
                while queue or pending:
                    while idle and queue:
                        actor, pair = idle.pop(), queue.pop(0)
                        pending[actor.compare.remote(pair)] = (pair, actor)
                    (ref,), _ = ray.wait(list(pending), num_returns=1)
                    pair, actor = pending.pop(ref)
                    try:
                        yield ray.get(ref)
                    except ray.exceptions.RayActorError as exc:  # the actor died: replace it, the pair failed
                        actor = actor_class.remote(config_data, cache)
                        yield failed(pair, f"ray worker died: {str(exc).splitlines()[0]}")
                    except Exception as exc:
                        yield failed(pair, f"ray worker failed: {type(exc).__name__}: {str(exc).splitlines()[0]}")
                    idle.append(actor)
        finally:
            for actor in idle + [a for _, a in pending.values()]:
                ray.kill(actor)

    def close(self) -> None:
        if self._started_ray:
            _ray().shutdown()
            self._started_ray = False

