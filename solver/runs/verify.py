"""The year `verify` checks an allocation of, as the register saw it: the policy, the candidates and the seats
the year had (its special round's backlog, or the register's state before the year)."""
from __future__ import annotations

from pathlib import Path

from ..policy import Policy
from ..data.problem import Problem


def register_seats(policy: Policy, problem: Problem, register: str | Path, year: int, special: bool = False):
    """(policy, problem, seats) of `year` against the register (read only): the seats the year had to fill,
    determined from the register's state before it; for its special round, from the backlog the round found
    (whether or not the round is recorded yet). The ceiling is not enforced here: `verify` checks it."""
    from ..register import Register
    from ..register.special import special_round
    from ..chain.vacancy import determine_seats

    with Register(register, readonly=True) as reg:
        reg.check_recruitment(policy.recruitment)
        if special:
            policy, problem, state = special_round(policy, problem, year, reg.backlog(year, replace=reg.has_special(year)))
        else:
            state = reg.state(year)
    return policy, problem, determine_seats(policy, problem, enforce_ceiling=False, state=state)
