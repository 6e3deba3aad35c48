"""The ceiling on reservation in a year's vacancies (Art. 16(4B); M.R. Balaji 1962 and Indra Sawhney 1992:
50%; Bill 2004 s.10 proviso: the backlog of SC and ST outside it): the arithmetic the engines' vacancy
determination uses, in one place, and the trim of a year that passes it. (`solver.verify.ceiling` checks an
allocation against the ceiling with arithmetic of its own.)"""
from __future__ import annotations

from ...errors import PolicyConflict
from ...policy import Policy


def outside_ceiling(policy: Policy, carried: dict, post: str, exempt: int) -> tuple[int, int]:
    """(reserved, all) vacancies of `post` outside the ceiling, from its carried items and its exempt vacancies."""
    items = [x for (p, c), xs in carried.items() if p == post and policy.backlog_outside_ceiling(c) for x in xs]
    return len(items), sum(x.kind == "vacancy" for x in items) + exempt


def ceiling_use(policy: Policy, seats: dict, carried: dict, exempt: dict, posts) -> dict[str, tuple[int, int]]:
    """Per post of `posts`: (reserved vacancies that count against the ceiling, all vacancies the ceiling is a
    share of). Carried vacancies of the categories whose backlog stands outside the ceiling, and exempt
    vacancies, are in neither. One pass over the seats and the carried items.

    Example
    -------
    >>> from solver import load_policy
    >>> pol = load_policy("central-dopt")
    >>> ceiling_use(pol, {("X", "UR"): 5, ("X", "SC"): 2, ("X", "OBC"): 3}, {}, {"X": 2}, ["X"])
    {'X': (5, 8)}
    """
    wanted = set(posts)
    counted = {c.code for c in policy.categories if c.in_ceiling}
    used = dict.fromkeys(posts, 0)
    total = dict.fromkeys(posts, 0)
    for (p, c), v in seats.items():
        if p in wanted:
            total[p] += v
            if c in counted:
                used[p] += v
    for p in posts:
        total[p] -= exempt.get(p, 0)
    for (p, c), xs in carried.items():
        if p in wanted and policy.backlog_outside_ceiling(c):
            used[p] -= len(xs)
            total[p] -= sum(x.kind == "vacancy" for x in xs)
    return {p: (used[p], total[p]) for p in posts}


def windowed(policy: Policy, post: str, split_by_roster) -> bool:
    """Whether a post's year is a window of its running roster that the ceiling leaves to the roster
    (`ceiling.roster_window = "roster_governs"`)."""
    return policy.ceiling.roster_window == "roster_governs" and post in split_by_roster


def programs_within(policy: Policy, uses: dict, programs: dict[str, str]) -> None:
    """Seat pools (`solver.data.seat_pools`): the ceiling is a share of a program's seats, all its pools
    together (a pool of one PwD seat may be all reserved); a program past it is refused, naming it."""
    total: dict[str, list[int]] = {}
    for post, program in programs.items():
        used, seats = uses[post]
        total.setdefault(program, [0, 0])
        total[program][0] += used
        total[program][1] += seats
    for program, (used, seats) in total.items():
        if used > policy.ceiling.share * seats + 1e-9:
            source = policy.ceiling.source or "ceiling.share"
            raise PolicyConflict(f"program {program}: {used} of its {seats} seats (all its seat pools) are reserved "
                                 f"under the ceiling, more than {policy.ceiling.share:.0%} ({source}); lower the "
                                 "reserved rows")


def trim_to_ceiling(policy: Policy, table, seats: dict, enforce: bool, notes: list[str],
                    programs: dict[str, str] | None = None) -> dict[tuple[str, str], int]:
    """A post whose reserved vacancies pass the ceiling: refused (`ceiling.excess = "refuse"`, PolicyConflict),
    or its excess carried forward and filled as open this year (Manipur s.5), taken from the largest current
    reserved row. `seats` is changed in place; returns the excess carried per (post, category). `enforce`
    False (verify) leaves a broken ceiling for `verify` to report. `programs`: post -> program for the posts
    that are seat pools, whose ceiling is their program's (`programs_within`)."""
    carried: dict[tuple[str, str], int] = {}
    uses = table.ceiling_use(policy)
    if programs and enforce:
        programs_within(policy, uses, programs)
    for post in table.posts:
        if programs and post in programs:
            continue
        used, total = uses[post]
        limit = policy.ceiling.share * total
        if used <= limit + 1e-9 or not enforce or windowed(policy, post, table.roster_used):
            continue
        if policy.ceiling.excess == "refuse":
            n_counted = sum(len(xs) for (p, c), xs in table.carried.items()
                            if p == post and not policy.backlog_outside_ceiling(c))
            with_backlog = f", {n_counted} of them carried from earlier years (ceiling.backlog_counts, " \
                "ceiling.backlog_excluded)" if n_counted else ""
            raise PolicyConflict(
                f"post {post}: {used} of {total} vacancies are reserved under the ceiling{with_backlog}, more than "
                f"{policy.ceiling.share:.0%} ({policy.ceiling.source or 'ceiling.share'}); "
                f"lower the reserved rows or set ceiling.excess=\"carry_forward\"")
        excess = used - int(limit + 1e-9)
        counted = [c.code for c in policy.categories if c.in_ceiling]

        def current(c: str) -> int:
            # (a claim, Manipur s.6, relabels one of this year's vacancies: it stays a current one)
            return seats.get((post, c), 0) - sum(x.kind != "claim" for x in table.carried.get((post, c), ()))
        for _ in range(excess):
            # Trim the largest current reserved row (carried vacancies stay as the register has them); ties
            # go to the category listed last (the most recent claim).
            # (carry-in admitted carried vacancies only within the ceiling, so current ones are what passes it)
            code = max(counted, key=lambda c: (current(c), counted.index(c)))
            if current(code) <= 0:
                break  # (nothing current left to trim: the carried vacancies were admitted within the ceiling)
            seats[(post, code)] -= 1
            seats[(post, policy.open)] = seats.get((post, policy.open), 0) + 1
            carried[(post, code)] = carried.get((post, code), 0) + 1
        notes.append(f"{post}: {excess} reserved vacancies above the {policy.ceiling.share:.0%} ceiling carried "
                     f"forward and filled as open this year ({policy.ceiling.source})")
    return carried
