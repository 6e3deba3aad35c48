"""Horizontal minimums on a pool's signature chains (Rajesh Kumar Daria 2007; Saurav Yadav 2020): the minimum
guarantee, each appointee counting for one trait (`minimums`) or for every trait they have (`counting_each`).

For a set Y of the pool's traits let need(Y) be the seats Y's minimums reserve, H(Y) the holders who count for
some trait of Y, and F(Y) those free to take the pool (holding nothing they prefer). By Hall's theorem with
deficiency, the holders fill all but max_Y (need(Y) - H(Y)) of the minimums' seats, each holder counting once,
and no set of the free could fill more than all but D = max(0, max_Y need(Y) - min(capacity, F(Y))).
"""
from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from ...compartment import exchanges, hall_terms, merit_only_class
from ...pools import Pool
from .model import Chains, Model


def minimums(model: Model, p: Pool, ch: Chains, capacity) -> None:
    """The minimum guarantee: the holders are the merit-lexicographic best set meeting the minimums as far as
    anyone can (for several traits, the greedy basis of a matroid):
    - `merit_only_fixed`: those who count but enter only on merit are in exactly when in the merit top;
    - `shortfall_only_when_nobody_left`: every need(Y) - H(Y) <= D;
    - `passed_over_only_for_a_seat`: a candidate is left out while a worse one of another signature is in
      only where taking the first for the second would leave a minimum's seat unfilled."""
    if p.counts_each:
        counting_each(model, p, ch)
        return
    fixed = merit_only_fixed(model, p, ch, capacity)
    d, h = shortfall_only_when_nobody_left(model, p, ch, capacity)
    passed_over_only_for_a_seat(model, p, ch, fixed, d, h)


def held_vacancy(model: Model, p: Pool):
    """The seats of `p`'s held minimums left vacant (`solver.chain.compartment.held_vacant`): per held trait,
    min(this year's seats, max(0, minimum - its beneficiaries holding `p`)). Counted with the pool's holders, so
    that its capacity and its fullness (no waste) read them as taken, and later phases do not fill them."""
    m, xs = model.m, model.holds[p.index]
    vacant = []
    for t, h in p.held.items():
        ben = [x for i, x in xs.items() if p.beneficiary[t][i]]
        short = m.new_int_var(0, p.minimums[t], model.names("held_short", p, extra=t))
        m.add_max_equality(short, [0, p.minimums[t] - cp_model.LinearExpr.sum(ben)])
        v = m.new_int_var(0, h, model.names("held_vacant", p, extra=t))
        m.add_min_equality(v, [h, short])
        vacant.append(v)
    return cp_model.LinearExpr.sum(vacant)


def merit_only_fixed(model: Model, p: Pool, ch: Chains, capacity) -> list:
    """Those who count but enter only on merit (`Pool.incoming`) are in exactly when among the merit top: no
    adjustment brings them in, and none removes them since they count (one trait: several are refused
    upstream). Returns, per signature chain, whether it is such a class (and not empty)."""
    fixed = [merit_only_class(p, s) and len(g) for s, g in zip(ch.sigs, ch.groups)]
    if any(fixed):
        merit_cutoff(model, p, ch, capacity)
        for k, lits in enumerate(ch.lits):
            if fixed[k]:
                for i, lit in zip(ch.groups[k].tolist(), lits):
                    model.m.add(lit == (ch.merit[i] if i in ch.merit else 0))  # past the depth: outside the top
    return fixed


def shortfall_only_when_nobody_left(model: Model, p: Pool, ch: Chains, capacity):
    """need(Y) - H(Y) <= D for every Y: a minimum's seat is left unfilled only where nobody free was left to
    fill it (Rajesh Kumar Daria 2007: the shortfall is met from the best remaining beneficiaries). Returns
    (D, H per Y)."""
    m, xs = model.m, model.holds[p.index]
    ys, need, meets = hall_terms(p)
    held = [cp_model.LinearExpr.sum([xs[i] for i in g.tolist()]) for g in ch.groups]
    h = [sum(held[k] for k, s in enumerate(ch.sigs) if meets[y, s]) for y in range(len(ys))]
    if len(ys) > 1:
        d = deficiency(model, p, ch, capacity, need, meets)
        for y in range(len(ys)):
            m.add(int(need[y]) - h[y] <= d)
        return d, h
    # One trait: D > 0 only when every beneficiary is admitted, so "H >= need, or every beneficiary admitted"
    # says the same without the free counts (4 times faster at 100,000 candidates).
    classes = [k for k, s in enumerate(ch.sigs) if s and not merit_only_class(p, s) and len(ch.full_groups[k])]
    if classes:
        met = m.new_bool_var(model.names("minimum_met", p))
        m.add(h[0] >= int(need[0])).only_enforce_if(met)
        if len(ch.full_groups[classes[0]]) > len(ch.lits[classes[0]]):
            m.add(met == 1)  # beneficiaries remain past the cut: the pool is full of better ones
        else:
            m.add_bool_or([met, ch.lits[classes[0]][-1]])
    return 0, h


def passed_over_only_for_a_seat(model: Model, p: Pool, ch: Chains, fixed: list, d, h) -> None:
    """A candidate of signature s may be left out while a worse one of signature u is admitted only if taking
    the first for the second would leave a seat unfilled: need(Y) - H(Y) >= D for some Y that u meets and s
    does not. With one trait: a non-beneficiary is passed over for a beneficiary only while the compartment
    holds at most its minimum (no removal for excess), a beneficiary never for a non-beneficiary."""
    m, names = model.m, model.names
    ys, need, meets = hall_terms(p)
    tight = {}

    def tight_lit(y: int):
        if y not in tight:
            tight[y] = m.new_bool_var(names("minimum_tight", p, extra=f"traits {int(ys[y])}"))
            m.add(int(need[y]) - h[y] >= d).only_enforce_if(tight[y])
        return tight[y]

    for a, s in enumerate(ch.sigs):          # s: left out, better
        for b, u in enumerate(ch.sigs):      # u: admitted, worse
            if a == b or not len(ch.groups[b]) or fixed[a]:
                continue
            allowed = [y for y in range(len(ys)) if meets[y, u] and not meets[y, s]]
            inverted = None
            if allowed:
                inverted = m.new_bool_var(names("passed_over", p, extra=f"signature {s} for {u}"))
                m.add_bool_or([inverted.Not(), *[tight_lit(y) for y in allowed]])
            lits_s = ch.lits[a]
            for k, j in enumerate(np.searchsorted(ch.key(ch.full_groups[a]), ch.key(ch.groups[b])) - 1):
                if j < 0:
                    continue
                lv = ch.lits[b][k]
                if j >= len(lits_s):        # the better one is past the cut, hence not admitted
                    if inverted is None:
                        m.add(lv == 0)
                    else:
                        m.add_implication(lv, inverted)
                else:
                    m.add_bool_or([lv.Not(), lits_s[j], *([inverted] if inverted is not None else [])])


def counting_each(model: Model, p: Pool, ch: Chains) -> None:
    """Each appointee counting for every trait they have (`multi_trait_counts_each`): the holders are the set
    that fills the most of the minimums' seats, then the merit-lexicographic best (the definition taken here;
    `solver.chain.compartment._best_counting_each`). The chains keep each signature class's holders a merit prefix of
    those free to take the pool, so it is enough that no exchange of `solver.chain.compartment.exchanges` improves the
    set (`no_improving_exchange`). An exchange taking classes O out (each one's worst holder) and I in (each
    one's best free non-holder) is possible when all of those exist; it fills g more seats of the minimums
    (g from each count's distance to its minimum); it is better on merit when some class of I has a free
    non-holder ahead of a holder of every class of O (`ahead`)."""
    each = _Each(model, p, ch)
    for outs, ins in each.moves:
        no_improving_exchange(each, outs, ins)


class _Each:
    """The literals `counting_each` states its exchanges with, each built when first needed."""

    def __init__(self, model: Model, p: Pool, ch: Chains):
        self.model, self.m, self.p, self.ch = model, model.m, p, ch
        self.xs = model.holds[p.index]
        self.mins = list(p.minimums.values())
        self.classes = [k for k, g in enumerate(ch.groups) if len(g)]
        self.waiting_so_far = {k: self._waiting_chain(k) for k in self.classes}
        of = {ch.sigs[k]: k for k in self.classes}
        self.moves = [([of[s] for s in o], [of[s] for s in i]) for o, i in exchanges(list(of))]
        self.held_from: dict[int, list] = {}
        self.ahead = {(u, v): self._ahead(u, v) for u, v in sorted({(u, v) for outs, ins in self.moves
                                                                     for u in ins for v in outs})}
        self.has_holder: dict[int, cp_model.IntVar] = {}
        self.count = [cp_model.LinearExpr.sum([self.xs[i] for k in self.classes if ch.sigs[k] >> t & 1
                                               for i in ch.groups[k].tolist()]) for t in range(len(self.mins))]
        self.at_most: dict[tuple[int, int], cp_model.IntVar] = {}

    def _waiting_chain(self, k: int) -> list:
        """Per member of class k, "some free non-holder of the class so far" (a monotone chain)."""
        m, names, chain = self.m, self.model.names, []
        for i in self.ch.groups[k].tolist():
            w = m.new_bool_var(names("waiting_so_far", self.p, i))
            f = self.model.free[self.p.index].get(i, 1)
            m.add_bool_or([w, self.xs[i], *([f.Not()] if not isinstance(f, int) else [])])
            if chain:
                m.add_implication(chain[-1], w)
            chain.append(w)
        return chain

    def later_holder(self, k: int) -> list:
        """Per member of class k, "some holder of the class at or after this member"."""
        if k not in self.held_from:
            chain = [self.m.new_bool_var(self.model.names("holder_from", self.p, i)) for i in self.ch.groups[k].tolist()]
            for pos, i in enumerate(self.ch.groups[k].tolist()):
                self.m.add_implication(self.xs[i], chain[pos])
                if pos:
                    self.m.add_implication(chain[pos], chain[pos - 1])
            self.held_from[k] = chain
        return self.held_from[k]

    def _ahead(self, u: int, v: int):
        """Must hold when some holder of class v has a free non-holder of class u before him: stated over the
        smaller of the two classes (a maximum over ranks per class took 336 s of search on twenty posts of
        100,000 candidates; these clauses, 55 s)."""
        m, ch = self.m, self.ch
        lit = m.new_bool_var(self.model.names("ahead", self.p, extra=f"class {ch.sigs[u]} before {ch.sigs[v]}"))
        gu, gv = ch.groups[u], ch.groups[v]
        ku, kv = ch.key(gu), ch.key(gv)     # (places on the pool's list, ascending along each chain)
        if len(gv) <= len(gu):
            # per holder of v: a free non-holder of u before him
            for i, j in zip(gv.tolist(), (np.searchsorted(ku, kv) - 1).tolist()):
                if j >= 0:
                    m.add_bool_or([self.xs[i].Not(), self.waiting_so_far[u][j].Not(), lit])
        else:
            # per member of u: a free non-holder of u so far and a holder of v after him (the smaller class)
            after = self.later_holder(v)
            for j, k in enumerate(np.searchsorted(kv, ku).tolist()):
                if k < len(gv):
                    m.add_bool_or([self.waiting_so_far[u][j].Not(), after[k].Not(), lit])
        return lit

    def some_holder(self, k: int):
        """A class holds someone: the first link of its suffix chain where one was built, else its own literal."""
        if k in self.held_from:
            return self.held_from[k][0]
        if k not in self.has_holder:
            self.has_holder[k] = self.m.new_bool_var(self.model.names("some_holder", self.p,
                                                                      extra=f"class {self.ch.sigs[k]}"))
            for i in self.ch.groups[k].tolist():
                self.m.add_implication(self.xs[i], self.has_holder[k])
        return self.has_holder[k]

    def le(self, t: int, j: int):
        """count[t] <= mins[t] + j"""
        if (t, j) not in self.at_most:
            lit = self.at_most[t, j] = self.m.new_bool_var(self.model.names("count_at_most", self.p,
                                                                            extra=f"trait {t} minimum {j:+d}"))
            self.m.add(self.count[t] <= self.mins[t] + j).only_enforce_if(lit)
            self.m.add(self.count[t] >= self.mins[t] + j + 1).only_enforce_if(lit.Not())
        return self.at_most[t, j]


def no_improving_exchange(each: _Each, outs: list[int], ins: list[int]) -> None:
    """Forbidden: the exchange of classes `outs` for `ins` possible with a gain in seats filled, or with no
    loss and better on merit."""
    sigs, gain = each.ch.sigs, 0
    for t in range(len(each.mins)):
        d = sum(sigs[k] >> t & 1 for k in ins) - sum(sigs[k] >> t & 1 for k in outs)
        # seats of minimum t filled more (fewer) by raising (lowering) its count by |d|
        gain += sum(each.le(t, -j) for j in range(1, d + 1)) - sum(each.le(t, j) for j in range(-d))
    when = [each.some_holder(k) for k in outs] + [each.waiting_so_far[k][-1] for k in ins]
    _unless(each.m, when, gain, 0)
    if isinstance(gain, int) and gain < 0:
        return
    for k in ins:
        _unless(each.m, [*when, *[each.ahead[k, o] for o in outs]], gain, -1)


def _unless(m: cp_model.CpModel, when: list, expr, bound: int) -> None:
    """expr <= bound wherever every literal of `when` holds (expr may be a plain number)."""
    if isinstance(expr, int):
        if expr > bound:
            m.add_bool_or([w.Not() for w in when])
    else:
        m.add(expr <= bound).only_enforce_if(when)


def merit_cutoff(model: Model, p: Pool, ch: Chains, capacity) -> None:
    """`ch.merit[i]`: i is among the pool's merit top, the best `capacity` of the eligible who are free to
    take it (Rajesh Kumar Daria 2007: the compartment is first filled on merit). A monotone chain over the
    eligible, cut at the pool's depth like the others (the top lies within it)."""
    m, free = model.m, model.free[p.index]
    elig = ch.elig[:ch.depth].tolist()
    lits = [m.new_bool_var(model.names("merit_top", p, i)) for i in elig]
    for a, b in zip(lits[1:], lits[:-1]):
        m.add_implication(a, b)
    inside = []
    for i, g in zip(elig, lits):
        f = free.get(i, 1)
        if isinstance(f, int):
            inside.append(g)
            continue
        both = m.new_bool_var(model.names("merit_top_free", p, i))
        m.add_bool_and([g, f]).only_enforce_if(both)
        m.add_bool_or([g.Not(), f.Not(), both])
        inside.append(both)
    total = cp_model.LinearExpr.sum(inside)
    m.add(total <= capacity)
    everyone = lits[-1] if lits and len(ch.elig) <= ch.depth else None
    if everyone is None:
        m.add(total >= capacity)
    else:
        m.add(total >= capacity).only_enforce_if(everyone.Not())
    ch.merit.update(zip(elig, lits))
    ch.top_free.update(zip(elig, inside))


def deficiency(model: Model, p: Pool, ch: Chains, capacity, need, meets):
    """D = max(0, max_Y need(Y) - min(capacity, F(Y))): the seats no set of the free could fill."""
    m, free = model.m, model.free[p.index]
    cap = m.new_int_var(0, p.base, model.names("capacity", p))
    m.add(cap == capacity)
    forced = []
    for y in range(len(need)):
        classes = [k for k, s in enumerate(ch.sigs) if meets[y, s]]
        if any(len(ch.full_groups[k]) > len(ch.lits[k]) for k in classes):
            # The chain was cut: at least `capacity` of its first `depth` are free (the rest hold pools they
            # prefer, whose capacities the depth counts).
            forced.append(int(need[y]) - cap)
            continue
        f = m.new_int_var(0, p.base, model.names("free_count", p, extra=f"traits {y + 1}"))
        # (those who enter only on merit are free to take the pool only within its merit top)
        terms = []
        for k in classes:
            who = ch.groups[k].tolist()
            terms += [ch.top_free.get(i, 0) for i in who] if merit_only_class(p, ch.sigs[k]) else [free[i] for i in who]
        m.add_min_equality(f, [cap, cp_model.LinearExpr.sum(terms)])
        forced.append(int(need[y]) - f)
    d = m.new_int_var(0, int(need.max(initial=0)), model.names("deficiency", p))
    m.add_max_equality(d, [0, *forced])
    return d


