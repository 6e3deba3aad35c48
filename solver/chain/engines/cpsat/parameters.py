"""The CP-SAT solver's parameters for Aarakshan's models: one setting for every solve (the allocation, its
certificate, the infeasibility core), so that the answer is the same for any number of workers."""
from __future__ import annotations

from ortools.sat.python import cp_model


def parameters(hinted: bool, certify: bool, time_limit: float | None, workers: int) -> cp_model.CpSolver:
    """A solver set up for this model: deterministic (seed 0), and for a certificate tuned to walk the hint."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, workers)
    solver.parameters.random_seed = 0
    # Merit breaks every tie, so the model has no symmetry worth finding; on RRB-like instances the search
    # for it took 57 of 58 seconds.
    solver.parameters.symmetry_level = 0
    if hinted:
        solver.parameters.cp_model_presolve = False
        # With the greedy's hint the search is a walk down the hint; solving the LP relaxation at its nodes was
        # what took the time (horizontal minimums at 100,000 candidates: 87 s with it, 3.8 s without).
        solver.parameters.linearization_level = 0
    if time_limit:
        solver.parameters.max_time_in_seconds = float(time_limit)
    if certify:
        # Probing the model before the walk took a second at 100,000 candidates (its whole time budget), and
        # a certificate does not need it: 3.1 s -> 1.4 s of search on bihar-100k-horizontal.
        solver.parameters.cp_model_probing_level = 0
    return solver


def solve_stoppably(solver: cp_model.CpSolver, model: cp_model.CpModel):
    """`solver.solve(model)`, stopped within a fraction of a second when the run is interrupted. The search runs
    in a thread of its own while this one waits in short steps, so that Ctrl-C (KeyboardInterrupt) and
    SIGTERM (the command's handler raises SystemExit) are handled at once: the search is stopped
    (`stop_search`) and the interruption goes on up. A solve in this thread would defer the handler until
    the search ended (an audit's 16 minutes)."""
    import threading
    box: dict = {}
    # CP-SAT's own Ctrl-C catcher replaces the process's SIGINT handler for the length of the search, and a
    # SIGINT landing there aborted the process (std::bad_function_call, exit -6). The command's handler stops
    # the search instead, as it does on SIGTERM.
    solver.parameters.catch_sigint_signal = False

    def search() -> None:
        try:
            box["status"] = solver.solve(model)
        except BaseException as e:   # (told in the waiting thread)
            box["error"] = e
    thread = threading.Thread(target=search, name="cp-sat", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except BaseException:
        # Stopped; presolve of a large model can take seconds to notice, so the interruption goes on up after a
        # short wait either way (the thread is a daemon, and the command ends by os._exit, which no native
        # thread still running can abort).
        solver.stop_search()
        thread.join(0.5)
        raise
    if "error" in box:
        raise box["error"]
    return box["status"]
