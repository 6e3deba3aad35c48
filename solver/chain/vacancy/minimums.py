"""Horizontal minimums of a year's seats (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007; RPwD Act 2016 s.34):
from the policy's shares where vacancies.csv gave none, cut to what a compartment holds, held within the
compartment after a recommendation list, or made overall per post (para 18)."""
from __future__ import annotations

import math
from dataclasses import replace

from ...errors import Unsupported
from ...policy import Policy
from ...data.problem import SUBCATEGORIES
from .seats import SeatTable


def minimums_from_shares(policy: Policy, seats, minimums, notes) -> None:
    """Horizontal minimums from policy shares where vacancies.csv gave none (women 30-35% in many states;
    PwBD 4%: RPwD Act 2016 s.34). Compartmentalised: each post x category gets its own minimum."""
    traits = [t for t in policy.horizontal.traits if t.share > 0]
    if not traits:
        return
    if policy.horizontal.mode == "overall":
        return
    given = {(p, c) for (p, c, _) in minimums}
    for (post, code), v in seats.items():
        if (post, code) in given or v == 0:
            continue
        for t in traits:
            m = min(v, _rounded(policy, t.share * v))
            if m > 0:
                minimums[(post, code, t.name)] = m
    notes.append("horizontal minimums from policy shares: " + ", ".join(f"{t.name} {t.share:.0%}" for t in traits)
                 + f" of each compartment, {policy.horizontal.rounding}ed")


def cut_to_compartments(table: SeatTable, seats: dict, minimums: dict, notes: list[str]) -> None:
    """Carried vacancies and the ceiling may have shrunk a compartment below a minimum vacancies.csv gave: the
    minimum is cut to the compartment's vacancies (those open to exchange partners left out)."""
    for (post, code, trait), m in list(minimums.items()):
        size = seats.get((post, code), 0) - table.exchangeable.get((post, code), 0)
        if m > size:
            minimums[(post, code, trait)] = size
            notes.append(f"{post}: the {trait} minimum of {code} cut from {m} to the compartment's {size} vacancies")


def held_within(minimums: dict, seats: dict, notes: list[str]) -> None:
    """After a recommendation list a post's minimums are seats held in the compartment (`solver.chain.selection`), so
    together they fit in its vacancies: traits are served in name order (for the PwBD sub-categories that is
    RPwD Act 2016 s.34's a, b, c, d+e) and a trait that does not fit is cut."""
    room: dict[tuple[str, str], int] = {}
    for (post, code, trait) in sorted(minimums):
        left = room.setdefault((post, code), seats.get((post, code), 0))
        m = minimums[(post, code, trait)]
        if m > left:
            minimums[(post, code, trait)] = left
            notes.append(f"{post}: the {trait} minimum of {code} cut from {m} to {left}: the compartment's held "
                         f"seats for the minimums before it in name order leave no more")
        room[(post, code)] = left - minimums[(post, code, trait)]


def _rounded(policy: Policy, x: float) -> int:
    r = policy.horizontal.rounding
    return {"round": lambda: math.floor(x + 0.5 + 1e-9), "floor": lambda: math.floor(x + 1e-9),
            "ceil": lambda: math.ceil(x - 1e-9)}[r]()


def _post_minimums(policy: Policy, table: SeatTable, post: str, given: dict, minimums: dict,
                   notes: list[str]) -> dict:
    """One post's overall minimums: each trait's from vacancies.csv (summed over its compartments) or its
    share of the post's vacancies, cut to the post's size; a trait the policy does not name, as given."""
    size = sum(v for (p, _), v in table.seats.items() if p == post) - \
        sum(v for (p, _), v in table.exchangeable.items() if p == post)
    out = {}
    for t in policy.horizontal.traits:
        m = given.get((post, t.name), _rounded(policy, t.share * size) if t.share > 0 else 0)
        if m > size:
            notes.append(f"{post}: the overall {t.name} minimum cut from {m} to the post's {size} vacancies")
            m = size
        if m > 0:
            out[(post, t.name)] = m
    named = {t.name for t in policy.horizontal.traits}
    for (p, _, trait), m in minimums.items():
        if p == post and trait not in named and m > 0:
            out[(post, trait)] = min(size, given[(post, trait)])
    return out


def overall_minimums(policy: Policy, table: SeatTable, minimums: dict, notes: list[str]) -> SeatTable:
    """Overall horizontal reservation (Anil Kumar Gupta 1995, para 18): the minimum belongs to the post, not to
    each compartment: the sum of vacancies.csv's minimums for the post, or the share of the post's vacancies
    (carried vacancies open to exchange partners are filled as a class of their own and are left out)."""
    if policy.horizontal.unfilled == "carry_forward":
        raise Unsupported("horizontal.unfilled = \"carry_forward\" with horizontal.mode = \"overall\" is not "
                          "implemented: the register carries a horizontal seat per compartment; use \"revert\"")
    given: dict[tuple[str, str], int] = {}
    for (post, _, trait), m in minimums.items():
        given[(post, trait)] = given.get((post, trait), 0) + m
    overall: dict[tuple[str, str], int] = {}
    for post in table.posts:
        overall.update(_post_minimums(policy, table, post, given, minimums, notes))
    if held := sorted({t for (_, t) in overall} & set(policy.horizontal.held)):
        raise Unsupported(f"horizontal.held ({', '.join(held)}) with horizontal.mode = \"overall\" is not "
                          "implemented: a held seat stays vacant in its compartment, and overall minimums are the "
                          "post's; use \"compartmentalised\", or leave horizontal.held empty")
    traits = {p: [t for (q, t) in overall if q == p] for (p, _) in overall}
    overlap = next((ts for ts in traits.values() if len(ts) > 1 and not all(t in SUBCATEGORIES for t in ts)), None)
    if overlap:
        raise Unsupported(f"horizontal.mode = \"overall\" with the traits {', '.join(overlap)} at one post is not "
                          "implemented: one appointee may have two of them, and no rule says how the post's minimums "
                          "then share her; several overall traits are taken when they cannot overlap (the PwBD "
                          "sub-categories pwbd_a, pwbd_b, pwbd_c, pwbd_de); or use \"compartmentalised\"")
    if overall:
        notes.append("horizontal minimums are overall, per post (Anil Kumar Gupta 1995): " + ", ".join(
            f"{p} {t} {m}" for (p, t), m in overall.items()))
    return replace(table, minimums={}, overall=overall, notes=tuple(notes))
