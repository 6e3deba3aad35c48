"""`verify --stage slide`: the sliding round's rules (SSC notice of 3 March 2026, press summaries; `Policy.slide`),
derived from the policy, the inputs, the first round's allocation and the responses (never from
`solver.exam.slide`)."""
from __future__ import annotations

from functools import cached_property

import numpy as np

from ..errors import PolicyConflict
from ..policy import Policy
from ..data.problem import Problem
from ..data.lists import ABSENT
from ..data.ranking import first_match
from .allocation import Allocation, Broken, held_as, may_hold
from .reading import same_rank_level, tied_past
from .wanted import Round, wanted_seats
from ..data.words import article
from .seat_pools import PoolBars


def check_slide(policy: Policy, problem: Problem, before: Allocation, responses: dict[str, str],
                after: Allocation, gone=frozenset()) -> list[str]:
    """One who fixed keeps his post and seat; one absent (or without a response) is gone; a floater holds his own
    post or one he ranks above it; a newcomer takes part only where `slide.newcomers`; no post and category
    holds more than the first round gave it; each holder may hold his seat and ranked the post; nobody taking
    part is passed over for one below him in merit on a seat he may hold at a post open to him that he prefers
    to his own outcome (a trait's beneficiary on a seat that served the trait aside), nor such a seat left
    empty. A slider is a floater offered only the posts of his own institute (JoSAA's slide: vacancies.csv
    `institute`, a program its own institute where none is given). `responses`: id -> fix or freeze, float,
    slide, absent or withdraw (a placed candidate without one is absent). `gone`: ids of those who left in an
    earlier round, who take no part and hold nothing. Under `slide.registration` (CSAB's special rounds) a holder
    without a response keeps his seat, and only those answering `register` take part anew (one who left before
    among them); a post whose open seats a list of `slide.closed_lists` ranks is not offered."""
    c, out, source = problem.candidates, [], policy.slide.source
    ids = [str(x) for x in c.ids]
    index = {x: i for i, x in enumerate(ids)}
    was = {before.ids[r]: (int(before.post[r]), before.seat[r], before.horizontal[r]) for r in range(len(before.ids))}
    now = {after.ids[r]: (int(after.post[r]), after.seat[r], r) for r in range(len(after.ids))}
    answer, registered = _answers(policy, was, responses)
    site = _institutes(problem)
    rank = _Ranks(problem, _closed(policy, problem))
    out += _responses_kept(problem, index, was, now, answer, rank, source)
    out += _moved_or_back(problem, was, now, answer, site, gone - registered, source)
    out += _into_closed(policy, problem, was, now, rank.closed)
    given, held = _offered_seats(policy, problem, was) if policy.slide.unfilled_offered else {}, {}
    for j, seat, _ in was.values():
        given[(j, seat)] = given.get((j, seat), 0) + 1
    for cid, (j, seat, r) in now.items():
        held[(j, seat)] = held.get((j, seat), 0) + 1
    out += _holders(policy, problem, index, was, now, rank, after, registered)
    out += [Broken(f"{k} hold the {key[1]} seats at {problem.posts[key[0]]}, where the first round had "
                   f"{given.get(key, 0)}", candidate=k, post=problem.posts[key[0]])
            for key, k in held.items() if k > given.get(key, 0) and not _tied_past(policy, problem, key, now,
                                                                                   index, given.get(key, 0))]
    kept = _kept_vacant(policy, problem, was, now, index)
    out += _held_filled(policy, problem, kept[0], given, held)
    takers = [cid for cid, a in answer.items() if a in ("float", "slide")]
    if policy.slide.newcomers:
        takers += [x for x in ids if x not in was and
                   (x in registered if policy.slide.registration else x not in gone)]
    return out + _passed_over(policy, problem, index, was, now, answer, given, held, rank, takers, after, site, kept)


def _moved_or_back(problem, was, now, answer, site, gone, source) -> list:
    """A slider moved to another institute; one who left in an earlier round holding a seat."""
    out = [Broken(f"{cid} slid from {problem.posts[was[cid][0]]} to {problem.posts[now[cid][0]]}, at another "
                  f"institute ({source}; JoSAA Business Rules: a slide is within the institute)", candidate=cid,
                  post=problem.posts[now[cid][0]])
           for cid, a in answer.items() if a == "slide" and cid in now and site[now[cid][0]] != site[was[cid][0]]]
    return out + [Broken(f"{cid} left the counselling in an earlier round, yet holds {problem.posts[j]} ({source})",
                         candidate=cid, post=problem.posts[j]) for cid, (j, _, _) in now.items() if cid in gone]


def _offered_seats(policy: Policy, problem: Problem, was: dict) -> dict:
    """(post index, category) -> seats the last round left unfilled, as the policy's conversions make them over
    in turn (a category's to another at the same post; a trait's to the program's pool without it; a quota's to
    the program's pool of the other quota), read from the seat matrix and the last round's holders. A post or
    category over its rows took a converted seat."""
    index = problem.post_index
    short: dict = {}
    for r in problem.vacancy_rows:
        short[(index[r.post], r.category)] = short.get((index[r.post], r.category), 0) + r.vacancies
    for j, seat, _ in was.values():
        short[(j, seat)] = short.get((j, seat), 0) - 1
    pool = {index[r.post]: r.pool for r in problem.vacancy_rows if r.pool is not None}
    kind = {(p.program, p.quota, p.gender_pool, p.trait): j for j, p in pool.items()}
    for rule in policy.seat_pools.conversions:
        for (j, seat), k in sorted(short.items()):
            if k <= 0:
                continue
            if rule.category == seat:
                target = (j, rule.to)
            elif j in pool and (to := _converted(rule, pool[j])) in kind:
                target = (kind[to], seat)
            else:
                continue
            short[target] = short.get(target, 0) + k
            short[(j, seat)] = 0
    return {key: k for key, k in short.items() if k > 0}


def _converted(rule, p) -> tuple | None:
    """The (program, quota, gender pool, trait) a trait's conversion (to no trait) or a quota's (to the rule's
    other quota) makes seats of pool `p` into; None where the rule is of neither kind or does not touch `p`."""
    if rule.trait and p.trait == rule.trait:
        return p.program, p.quota, p.gender_pool, ""
    if rule.quota and p.quota == rule.quota:
        return p.program, rule.to, p.gender_pool, p.trait
    return None


def _tied_past(policy: Policy, problem: Problem, key: tuple[int, str], now: dict, index: dict, given: int) -> bool:
    """The holders of post j's `seat` seats past the `given` are all of the same rank on its list as the last
    within them: seats over the number, as the same-rank rule makes them (JoSAA Business Rules, "Multiple
    student - same rank rule", as summarised; `merit.same_rank`)."""
    j, seat = key
    level = same_rank_level(policy, problem, j, seat)
    return level is not None and tied_past(
        np.array([level[index[cid]] for cid, (jj, s, _) in now.items() if (jj, s) == key]), given)


def _institutes(problem: Problem) -> list[str]:
    """Per post, its institute as vacancies.csv gives it (else its program; a post without pools is its own)."""
    row = {r.post: r.pool for r in problem.vacancy_rows}
    return [(row[p].institute or row[p].program) if row.get(p) is not None else p for p in problem.posts]


def _responses_kept(problem, index, was, now, answer, rank, source) -> list[str]:
    """One who fixed holds his post and seat, one absent holds none, a floater is not moved down or out."""
    out = []
    moved = [cid for cid, a in answer.items() if a in ("float", "slide") and cid in now]
    who = [index[x] for x in moved]
    down = rank.places(who, [now[x][0] for x in moved]) > rank.places(who, [was[x][0] for x in moved])
    lower = {cid for cid, d in zip(moved, down.tolist()) if d}
    for cid, (j, seat, _) in was.items():
        a, got = answer[cid], now.get(cid)
        if a == "fix" and (got is None or got[:2] != (j, seat)):
            out.append(Broken(f"{cid} fixed his {seat} seat at {problem.posts[j]}, yet does not hold it ({source})", candidate=cid, post=problem.posts[j]))
        elif a == "absent" and got is not None:
            out.append(Broken(f"{cid} did not report, yet holds a post after the round ({source})", candidate=cid))
        elif a in ("float", "slide") and (got is None or cid in lower):
            out.append(Broken(f"{cid} floated from {problem.posts[j]} and is moved down or out ({source})", candidate=cid, post=problem.posts[j]))
    return out


def _answers(policy: Policy, was: dict, responses: dict) -> tuple[dict, set]:
    """Each holder's answer in plain words (fix, float, slide, absent; one without a response is absent, or under
    `slide.registration` did not register and keeps his seat), and those without a seat who registered."""
    plain = {"freeze": "fix", "withdraw": "absent"}
    unsaid = "fix" if policy.slide.registration else "absent"
    answer = {cid: plain.get(responses.get(cid, unsaid), responses.get(cid, unsaid)) for cid in was}
    return answer, {x for x, a in responses.items() if a == "register"} if policy.slide.registration else set()


def _into_closed(policy: Policy, problem: Problem, was: dict, now: dict, closed: frozenset[int]) -> list:
    """A seat taken at a post the round does not offer (`slide.closed_lists`): only its holder keeps it."""
    return [Broken(f"{cid} holds {problem.posts[j]}, a post the round does not offer (its list is one of "
                   f"slide.closed_lists: {', '.join(policy.slide.closed_lists)}; {policy.slide.source})",
                   candidate=cid, post=problem.posts[j])
            for cid, (j, seat, _) in now.items() if j in closed and was.get(cid, (None,))[:2] != (j, seat)]


def _closed(policy: Policy, problem: Problem) -> frozenset[int]:
    """The posts (indices) the round does not offer: those whose open seats a list of `slide.closed_lists`
    ranks, as vacancies.csv's `merit_list` names it."""
    names = set(policy.slide.closed_lists)
    given = set(problem.lists.names[1:]) if problem.lists is not None else set()
    if names - given:
        raise PolicyConflict(f"slide.closed_lists names {', '.join(sorted(names - given))}, a merit list the ranks "
                             "file does not give: which posts the round does not offer cannot be told")
    return frozenset(j for j in range(len(problem.posts)) if names and
                     problem.lists.names[problem.list_of(j, policy.open)] in names)


def _holders(policy, problem, index, was, now, rank, after, registered) -> list[str]:
    """Each holder takes part (a newcomer only where `slide.newcomers`, and under `slide.registration` only
    one who registered), may hold his seat, and, if new, ranked the post."""
    c, out, source = problem.candidates, [], policy.slide.source
    masks: dict[str, np.ndarray] = {}      # (a mask over every candidate per kind of seat, not per holder)
    pool_bars = PoolBars(policy, problem)
    new = [cid for cid in now if cid not in was]
    unranked = {cid for cid, k in zip(new, rank.places([index[x] for x in new], [now[x][0] for x in new]).tolist())
                if k >= len(problem.posts)}
    for cid, (j, seat, r) in now.items():
        i = index[cid]
        kind = held_as(policy, seat, after.route[r], c.category[i])
        if kind not in masks:
            masks[kind] = may_hold(policy, problem, kind)
        if cid not in was and not policy.slide.newcomers:
            out.append(Broken(f"{cid} was not placed in the first round, and slide.newcomers is false ({source})", candidate=cid))
        elif cid not in was and policy.slide.registration and cid not in registered:
            out.append(Broken(f"{cid} holds {problem.posts[j]} but did not register for the round ({source})",
                              candidate=cid, post=problem.posts[j]))
        if not masks[kind][i]:
            out.append(Broken(f"{cid} may not hold the {seat} vacancy at {problem.posts[j]}", candidate=cid, post=problem.posts[j]))
        if cid in unranked:
            # (a seat pool of a program he ranked that bars him: the bar is the breach, not his list)
            bars = pool_bars.of_ranked_program(i, j)
            why = "; ".join(bars) if bars else "a post he did not rank"
            out.append(Broken(f"{cid} holds {problem.posts[j]}, {why}", candidate=cid, post=problem.posts[j]))
    return out


def _seat_breach(problem, cid, u, mine, j, seat, holders, traits, masks, place, after, k, held, level) -> list:
    """Candidate u, who wanted post j and may hold its `seat` seats, passed over there for one below him on its
    list (a trait's beneficiary on a seat that served the trait aside), or such a seat left empty."""
    served = traits.get((j, seat), set())
    at = (lambda i: place[i]) if place is not None else (lambda i: i)
    below = [r for r in holders.get((j, seat), []) if at(after.cand[r]) > mine and
             not any(not masks[t][u] for t in set(after.horizontal[r].split(";")) & served)]
    if level is not None and below:
        # (the same rank is not below him: one of it holding the seat means he should hold one too, over the number)
        tied = [r for r in below if level[after.cand[r]] == level[u]]
        below = [r for r in below if level[after.cand[r]] != level[u]]
        if tied and not below:
            return [Broken(f"{cid} is of the same rank on the {seat} seats' list at {problem.posts[j]} as "
                           f"{after.ids[tied[0]]}, who holds one, and wanted it: same rank left out (JoSAA "
                           f"Business Rules, \"Multiple student - same rank rule\", as summarised)", candidate=cid,
                           post=problem.posts[j])]
    if below:
        r = below[0]
        k = problem.list_of(j, seat)
        on = f" on list {problem.lists.names[k]}" if k else ""
        return [Broken(f"{cid} (merit position {mine + 1}{on}) is passed over for {after.ids[r]} (merit position "
                       f"{at(after.cand[r]) + 1}) on the {seat} seat at {problem.posts[j]}", candidate=cid,
                       post=problem.posts[j])]
    if held.get((j, seat), 0) < k:
        return [Broken(f"{article(seat)} {seat} seat at {problem.posts[j]} is left empty while {cid} could take it", candidate=cid,
                       post=problem.posts[j])]
    return []


class _Ranks:
    """`places(i, j)`: the place of post j[k] in candidate i[k]'s list (`posts`, past every place, where he did
    not rank it; the posts' file order without preferences), read off the candidates' rows where asked: an n x P
    matrix of JoSAA's seat pools is 950 million cells."""

    def __init__(self, problem: Problem, closed: frozenset[int] = frozenset()):
        self.prefs, self.posts = problem.preferences, len(problem.posts)
        self.ranking = problem.ranking
        self.closed = closed      # (posts the round does not offer: `wanted_seats` passes them by)

    @cached_property
    def _rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.ranking.rows[1], *self.ranking.bounds

    def places(self, i, j) -> np.ndarray:
        """The places, for every k at once."""
        i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
        if self.prefs is None:
            return j
        post_row, start, end = self._rows
        at = first_match(post_row, start[i], end[i], j)
        return np.where(at < end[i], at - start[i], self.posts)



def _served(problem: Problem, was: dict) -> tuple[dict, dict]:
    """The traits each (post, seat) served in the round before, and who counts for each (made once per trait)."""
    traits: dict[tuple[int, str], set] = {}
    for j, seat, labels in was.values():
        traits.setdefault((j, seat), set()).update(t for t in labels.split(";") if t)
    return traits, {t: problem.candidates.trait(t) for labels in traits.values() for t in labels}


def _seat_rows(policy: Policy, problem: Problem, given: dict, holders: dict, after: Allocation) -> tuple[dict, dict]:
    """Per seat row, once: the place of each candidate on the merit list that orders its applicants (the
    candidates' own merit: None; or a list of its own) and the same-rank levels; and the place of its worst
    holder on that list, one better than whom passes nobody there (read per pair, JoSAA's checks took a
    minute)."""
    ranked = {key: (problem.lists.position[k] if k else None, same_rank_level(policy, problem, *key))
              for key, k in ((key, problem.list_of(*key)) for key in given)}
    worst = {key: max(((ranked[key][0][after.cand[r]] if ranked[key][0] is not None else after.cand[r])
                       for r in rows), default=-1) for key, rows in holders.items() if key in ranked}
    return ranked, worst


def _passed_over(policy, problem, index, was, now, answer, given, held, rank, takers, after, site, kept) -> list[str]:
    out = []
    traits, masks = _served(problem, was)
    holders: dict[tuple[int, str], list[int]] = {}
    for cid, (j, seat, r) in now.items():
        # (one who fixed keeps his seat, and so does a floater left where he was: nobody is moved down or out)
        if answer.get(cid) != "fix" and not (cid in was and was[cid][:2] == (j, seat)):
            holders.setdefault((j, seat), []).append(r)
    may = {seat: may_hold(policy, problem, seat) for seat in {s for _, s in given}}
    ranked, worst = _seat_rows(policy, problem, given, holders, after)
    rows = list(given)      # (a post's seat rows in the order given: the order they are told in)
    open_to = np.array([ABSENT if held.get(key, 0) < given[key] else worst.get(key, -1) for key in rows],
                       dtype=np.int64)
    rnd = Round(was, now, answer, rank.closed, site)
    kept, ben = kept
    for cid, u, mine, s in wanted_seats(problem, index, takers, rnd, rows, may, open_to):
        (j, seat), (place, level) = rows[s], ranked[rows[s]]
        vacant = sum(max(0, m - have - int(ben[t][u])) for t, (m, have) in kept.get((j, seat), {}).items())
        out += _seat_breach(problem, cid, u, mine, j, seat, holders, traits, masks, place, after,
                            given[(j, seat)] - vacant, held, level)
    return out


def _held_filled(policy: Policy, problem: Problem, kept: dict, given: dict, held: dict) -> list:
    """A seat the round keeps vacant for a held trait (`_kept_vacant`) that someone holds all the same."""
    out = []
    for (j, seat), traits in kept.items():
        vacant = sum(max(0, m - have) for m, have in traits.values())
        if vacant and held.get((j, seat), 0) > given.get((j, seat), 0) - vacant:
            out.append(Broken(f"{held[(j, seat)]} hold the {seat} seats at {problem.posts[j]}, of which {vacant} are "
                              f"held for {' and '.join(traits)} and no beneficiary holds them: held horizontal seat "
                              f"filled by another ({policy.horizontal.held_source})", post=problem.posts[j]))
    return out


def _kept_vacant(policy: Policy, problem: Problem, was: dict, now: dict, index: dict) -> dict:
    """(post, seat) -> {held trait: (the round's seats there that served it in the round before, its beneficiaries
    holding them now)}: such a seat no beneficiary takes stays vacant (`horizontal.held`; PwD Act 1995 s.36),
    so it is no empty seat another could claim. A seat served the first trait its holder's labels name. Returns
    that and who counts for each held trait."""
    out: dict = {}
    ben = {t: problem.candidates.trait(t) for t in policy.horizontal.held}
    for j, seat, labels in was.values():
        t = labels.split(";")[0]
        if t in policy.horizontal.held:
            m, _ = out.setdefault((j, seat), {}).get(t, (0, 0))
            out[(j, seat)][t] = (m + 1, 0)
    for cid, (j, seat, _) in now.items():
        for t, (m, have) in out.get((j, seat), {}).items():
            out[(j, seat)][t] = (m, have + int(ben[t][index[cid]]))
    return out, ben
