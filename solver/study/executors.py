"""Where a sweep's scenarios are solved besides this process: a local pool of processes, or a Dask cluster
(local or at a scheduler's address). Each runs `work(job, problems[task.reading], task)` per task and hands back
the results as they finish; the problems are shipped once per worker, not per task."""
from __future__ import annotations

import re

from ..errors import OptionError

_SHIPPED: dict = {}


def _init_worker(work, job, problems) -> None:
    _SHIPPED["work"], _SHIPPED["job"], _SHIPPED["problems"] = work, job, problems


def _pool_task(t):
    return _SHIPPED["work"](_SHIPPED["job"], _SHIPPED["problems"][t.reading], t)


def on_pool(work, workers: int, job, problems: list, tasks: list, progress) -> list:
    """The tasks solved by `workers` processes of this machine, in the order they finish."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    out = []
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(work, job, problems)) as ex:
        for f in as_completed([ex.submit(_pool_task, t) for t in tasks]):
            out.append(f.result())
            if progress:
                progress(len(out))
    return out


def _dask_task(t, work, job, problems):
    return work(job, problems[t.reading], t)


DASK_TIMEOUT = 5   # seconds to reach a scheduler before the sweep is refused


def check_dask_address(address: str) -> None:
    """"local" or a scheduler address (tcp://HOST:PORT, tls://..., ...); anything else is refused at once."""
    if address != "local" and not re.fullmatch(r"(tcp|tls|ucx|inproc|ws|wss)://[^\s:/]+:\d{1,5}", address):
        raise OptionError("dask", f"{address!r} is neither 'local' nor a scheduler address like tcp://HOST:8786")


def on_dask(work, address: str, workers: int, job, problems: list, tasks: list, progress) -> list:
    """The tasks solved on a Dask cluster: a LocalCluster of `workers` processes ("local"), or the scheduler at
    `address`; in the order they finish."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise OptionError("dask", "Dask is not installed: pip install 'aarakshan[dask]'") from None
    cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                           dashboard_address=None) if address == "local" else None
    try:
        try:
            client = Client(cluster if cluster is not None else address, timeout=DASK_TIMEOUT)
        except (OSError, TimeoutError) as e:
            raise OptionError("dask", f"no Dask scheduler answered at {address} within {DASK_TIMEOUT} s "
                              f"({type(e).__name__}); start one there or use dask=local") from None
        with client:
            shipped = client.scatter(problems, broadcast=True)   # once, not per task
            futures = client.map(_dask_task, tasks, work=work, job=job, problems=shipped, pure=False)
            out = []
            for f in as_completed(futures):
                out.append(f.result())
                if progress:
                    progress(len(out))
            return out
    finally:
        if cluster is not None:
            cluster.close()
