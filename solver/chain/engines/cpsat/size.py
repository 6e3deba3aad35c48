"""How big a CP-SAT model will be, before it is built: a model the machine cannot hold is refused (exit 3)."""
from __future__ import annotations

from ....errors import Unsupported
from ...pools import Pools


# Peak memory per (candidate, pool) pair of a model (benchmarks README, "Model size"): central-dopt with
# preferences 3.8 KB at 150 k pairs, 5.4 KB at 600 k; josaa-2025's seat pools on two lists (the counselling
# generator, 5,000 candidates) 10.8 KB at 589 k, the whole command's peak, the same with one list; at 2.95 million pairs that shape passed
# a 6 KB estimate and was killed for memory past 24 GB. Taken as 12 KB so the estimate errs high for both.
BYTES_PER_PAIR = 12 * 1024


def pairs(pools: Pools) -> int:
    """The (candidate, pool) pairs a model has chains for: the pools' eligible sets, counted off the candidates'
    lists, which hold the same pairs (JoSAA's 27,000 pools' eligible masks took 15 s to count one by one)."""
    return len(pools.preference_lists()[0])


def available_memory() -> int | None:
    """Bytes the machine can still give (MemAvailable), or None where it cannot tell."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def check_model_size(pools: Pools) -> None:
    """Refuse (exit 3) a model that would not fit in memory, before building it, rather than exhaust it."""
    count = pairs(pools)
    need, have = count * BYTES_PER_PAIR, available_memory()
    if have is not None and need > 0.8 * have:
        raise Unsupported(f"the CP-SAT model would have about {count:,} candidate-pool pairs, about "
                          f"{need / 2**30:.1f} GiB, more than this machine has free ({have / 2**30:.1f} GiB): use "
                          "engine=greedy (the reference procedure, which verify checks independently), or a "
                          "machine with more memory; time_limit bounds the search, not the model's size")
