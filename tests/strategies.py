"""Hypothesis strategies: small random recruitments under every policy."""
import os
import random

from hypothesis import strategies as st

from solver import load_policy
from solver.io.readers import read_problem

POLICIES = ["maharashtra-2001", "central-2004", "manipur-1976", "bihar-1991", "central-dopt", "upsc-cse"]
# Ceiling checks have their own tests; here every vacancy table is admissible.
SETS = ["ceiling.share=1.0"]


@st.composite
def instances(draw, max_n=24, max_posts=3, allow_prefs=True, allow_horizontal=True, fixed=None, traits=False,
              overall=False, each=False, policies=None, ranked=False, held=False):
    """`fixed`: (policy name, settings, posts) shared by the years of one simulation; `traits`: most
    compartments have minimums for both women and pwbd; `overall`: women's minimums, or the PwBD sub-categories', belong to the post;
    `each`: several traits per compartment, each appointee counting for every trait they have (without
    preferences, where the option is refused), sometimes with PwBD sub-categories beside pwbd; `policies`: draw
    from these only; `ranked`: at least two posts and a preferences file; `held`: some traits' unfilled seats
    kept vacant (`horizontal.held`; refused with overall minimums and counting each)."""
    policy_name = fixed[0] if fixed else draw(st.sampled_from([x for x in policies or POLICIES
                                                               if not (overall or each) or x != "upsc-cse"]))
    extra = list(fixed[1]) if fixed else draw(st.lists(st.sampled_from(["migration.relaxed_may_take_open=true",
                                           "horizontal.open_compartment_for_all=false",
                                           "unfilled.dereserve=true",
                                           "migration.upgrade=false",
                                           'migration.upgraded_counts_as="open"',
                                           'horizontal.traits=[{name="women", share=0.3}]',
                                           'horizontal.traits=[{name="women", share=0.3}, {name="pwbd", share=0.2}]',
                                           'horizontal.mode="overall"',
                                           ]), max_size=2,
                          unique=True))
    if overall:
        extra = [x for x in extra if "horizontal.traits" not in x and "horizontal.mode" not in x]
        extra += ['horizontal.mode="overall"', draw(st.sampled_from([
            'horizontal.traits=[{name="women", share=0.3}]',
            # the PwBD sub-categories, each the post's (OM 15.01.2018)
            'horizontal.traits=[{name="pwbd_a", share=0.2}, {name="pwbd_b", share=0.2}, {name="pwbd_de", share=0.2}]']))]
        traits = True
    if each and not fixed:
        extra = [x for x in extra if "horizontal.traits" not in x and "horizontal.mode" not in x]
        extra += ["horizontal.multi_trait_counts_each=true", *draw(st.lists(st.just(
            'horizontal.traits=[{name="women", share=0.4}, {name="pwbd_a", share=0.3}, {name="pwbd_b", share=0.3}]'),
            max_size=1))]
    if each:
        traits, allow_prefs = True, False
    overall = 'horizontal.mode="overall"' in extra
    # Overall sub-category minimums come from their shares alone: a women's column would overlap them (refused).
    subcategories = overall and any("pwbd_a" in x for x in extra)
    if overall and 'horizontal.traits=[{name="women", share=0.3}, {name="pwbd", share=0.2}]' in extra:
        extra.remove('horizontal.mode="overall"')  # several overall traits are refused (docs/limits.md)
        overall = False
    if not fixed:
        extra.append('roster.small_cadre="none"')  # the L-shaped roster is not encoded; TOTAL rows use due points
        if policy_name == "manipur-1976":
            # Manipur's two-vacancy rule takes the preceding years from a register, which one year has not
            extra.append('roster.two_vacancies="roster"')
    column = None   # with a recommendation list one trait, or the PwBD sub-categories: they cannot overlap
    if policy_name == "upsc-cse":
        for refused in ("unfilled.dereserve=true", 'horizontal.mode="overall"', "horizontal.multi_trait_counts_each=true",
                        'horizontal.traits=[{name="women", share=0.3}, {name="pwbd", share=0.2}]'):
            if refused in extra:
                extra.remove(refused)  # refused with a recommendation list (docs/limits.md)
        if 'horizontal.traits=[{name="women", share=0.3}]' in extra:
            column = "women"
        else:
            column = draw(st.sampled_from(["women", "pwbd", "subcategories"]))
            if column == "subcategories":
                # at 0.5 a one-seat compartment's two minimums round to 1 each: more than it can hold
                x = draw(st.sampled_from([0.25, 0.5]))
                extra.append(f'horizontal.traits=[{{name="pwbd_a", share={x}}}, {{name="pwbd_b", share={x}}}]')
    if not held and not fixed:
        # (central-dopt holds its PwBD seats; these draws keep the reading where seats revert, `held` the other)
        extra.append("horizontal.held=[]")
    if held and not fixed:
        extra = [x for x in extra if x != 'horizontal.mode="overall"']
        # (two held traits one candidate may have are refused: `solver.chain.engines.support`)
        extra.append(draw(st.sampled_from(['horizontal.held=["pwbd"]', 'horizontal.held=["women"]']))
                     if column != "subcategories" else 'horizontal.held=["pwbd_a", "pwbd_b"]')
        overall, traits = False, traits or draw(st.booleans())
    sets = list(fixed[1]) if fixed else SETS + extra
    pol = load_policy(policy_name, sets)
    codes = pol.member_codes
    n = draw(st.integers(1, max_n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    sparse = draw(st.booleans())  # few members of some categories: forces exchange and de-reservation
    weights = [rng.random() ** (4 if sparse else 1) for _ in codes]
    ties = draw(st.booleans())  # equal scores, resolved by the policy's tie-break (id)
    scores = [rng.randint(1, max(2, n // 3)) for _ in range(n)] if ties else rng.sample(range(1, 10 * n + 10), n)
    cands = []
    for k in range(n):
        cat = rng.choices(codes, weights)[0]
        cands.append([f"c{k}", scores[k], cat, rng.choice("MF"),
                      "true" if rng.random() < 0.15 else "", "true" if rng.random() < 0.15 else "",
                      rng.choice("abcde") if rng.random() < (0.08 if held else 0.25) else ""])
    posts = list(fixed[2]) if fixed else [f"P{j}" for j in range(draw(st.integers(2 if ranked else 1, max_posts)))]
    prefs = None
    if allow_prefs and len(posts) > 1 and not overall and (ranked or draw(st.booleans())):
        prefs = []
        for cid, *_ in cands:
            # `ranked`: half the candidates rank every post, so that two of them often ranked the same posts
            full = ranked and rng.random() < 0.5
            order = rng.sample(posts, len(posts) if full else rng.randint(1, len(posts)))
            prefs += [[cid, o, p] for o, p in enumerate(order, 1)]
    horizontal = allow_horizontal and (traits or draw(st.booleans()))
    often = 0.8 if traits else 0.35
    vacs = []
    for p in posts:
        if draw(st.booleans()) and rng.random() < 0.3:
            vacs.append([p, "TOTAL", rng.randint(0, 12), "", ""])  # split by the roster
            continue
        for code in [pol.open, *pol.reserved_codes]:
            v = rng.randint(0, 3)
            women = rng.randint(0, v) if horizontal and v and rng.random() < often + 0.05 and not subcategories \
                and column in (None, "women") else ""
            pwbd = rng.randint(0, v) if horizontal and v and rng.random() < often - 0.05 and not overall \
                and column in (None, "pwbd") else ""
            if held and pwbd != "":
                # (minimums within the seats: more is refused where a trait is held; a women's share of 0.3 counts)
                shared = any("women" in x for x in sets if x.startswith("horizontal.traits"))
                pwbd = min(pwbd, v - (women if women != "" else int(0.3 * v + 0.5) if shared else 0))
            vacs.append([p, code, v, women, pwbd])
    return policy_name, sets, cands, vacs, prefs


# Policies whose unfilled vacancies outlive the year; Bihar's exchange opens after one year here so that short
# simulations reach it.
YEAR_POLICIES = {"bihar-1991": ["exchange=[{categories=[\"SC\",\"ST\"],after_years=1},"
                                "{categories=[\"EBC\",\"BC\"],after_years=2}]", "unfilled.carry_years=2"],
                 "manipur-1976": [], "central-dopt": [], "maharashtra-2001": ["unfilled.carry_years=1"]}


@st.composite
def year_sequences(draw, max_years=4, max_n=14):
    """Several recruitment years of one cadre set under one policy, for the register."""
    name = draw(st.sampled_from(sorted(YEAR_POLICIES)))
    extra = draw(st.lists(st.sampled_from(["ceiling.backlog_counts=true", "unfilled.dereserve=true",
                                           "unfilled.dereserve=false"]), max_size=1))
    kind = draw(st.sampled_from(["none", "carried", "overall", "each", "held"]))
    if kind == "carried":   # horizontal seats carried, PwBD sub-categories interchanged (OM 15.01.2018)
        extra += ['horizontal.unfilled="carry_forward"', "horizontal.carry_years=2",
                  'horizontal.traits=[{name="pwbd_a", share=0.34}, {name="pwbd_c", share=0.2}]']
    elif kind == "held":     # PwBD seats kept vacant and carried (PwD Act 1995 s.36; RPwD Act 2016 s.34(2))
        extra += ['horizontal.held=["pwbd"]', "horizontal.carry_years=2"]
    elif kind == "overall":  # a women's minimum per post (Anil Kumar Gupta 1995), unfilled seats revert
        extra += ['horizontal.mode="overall"', 'horizontal.traits=[{name="women", share=0.3}]']
    elif kind == "each":     # women and PwBD, each appointee counting for both, unfilled seats carried
        extra += ["horizontal.multi_trait_counts_each=true", 'horizontal.unfilled="carry_forward"',
                  'horizontal.traits=[{name="women", share=0.4}, {name="pwbd", share=0.3}]']
    if kind != "held":
        extra.append("horizontal.held=[]")   # (central-dopt holds its PwBD seats: "held" draws that reading)
    sets = ['roster.small_cadre="none"', 'ceiling.excess="carry_forward"', *YEAR_POLICIES[name], *extra]
    posts = [f"P{j}" for j in range(draw(st.integers(1, 2)))]
    years = draw(st.integers(2, max_years))
    # A cadre may skip a year (Bihar s.2(e), Manipur s.2(b): only a year it recruits in ages its backlog).
    per_year = [posts if len(posts) == 1 else draw(st.sampled_from([posts, posts[:1], posts[1:]]))
                for _ in range(years)]
    return [draw(instances(max_n=max_n, fixed=(name, sets, yp), each=kind == "each", held=kind == "held"))
            for yp in per_year]


def materialise(folder, inst, shuffle_seed=None):
    from conftest import write_csv
    policy_name, sets, cands, vacs, prefs = inst
    cands = list(cands)
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(cands)
    os.makedirs(folder, exist_ok=True)
    write_csv(folder / "candidates.csv", ["id", "score", "category", "gender", "creamy_layer", "relaxed", "pwbd"],
              cands)
    write_csv(folder / "vacancies.csv", ["post", "category", "vacancies", "women", "pwbd"], vacs)
    pp = write_csv(folder / "preferences.csv", ["candidate_id", "order", "post"], prefs) if prefs else None
    pol = load_policy(policy_name, sets)
    return pol, read_problem(pol, folder / "candidates.csv", folder / "vacancies.csv", pp)


def tied_problem(folder, ids, vacs, ranks, prefs):
    """ids in own merit order; vacs: (post, seats, list); ranks: (id, list, rank); prefs: id -> posts in order."""
    from conftest import write_csv
    write_csv(folder / "c.csv", ["id", "rank", "category"], [[c, k + 1, "OPEN"] for k, c in enumerate(ids)])
    write_csv(folder / "v.csv", ["post", "category", "vacancies", "merit_list"], [[p, "OPEN", k, lst] for p, k, lst in vacs])
    write_csv(folder / "r.csv", ["candidate_id", "list", "rank"], ranks)
    write_csv(folder / "p.csv", ["candidate_id", "order", "post"],
              [[cid, k + 1, post] for cid, posts in prefs.items() for k, post in enumerate(posts)])
    pol = load_policy("josaa-2025")
    return pol, read_problem(pol, folder / "c.csv", folder / "v.csv", folder / "p.csv", ranks=folder / "r.csv")


@st.composite
def tied_market(draw):
    """Up to 5 candidates on two merit lists with equal ranks (`one`, `two`; some off a list), up to 3 posts of
    1-2 seats each ranked by one of them, random preferences: markets where the same-rank rule bites."""
    n = draw(st.integers(2, 5))
    ids = [f"C{i}" for i in range(n)]
    posts = ["X", "Y", "Z"][:draw(st.integers(1, 3))]
    vacs = [(p, draw(st.integers(1, 2)), lst) for p, lst in zip(posts, ["one", "two", "one"])]
    ranks = [[c, lst, draw(st.integers(1, 3))] for c in ids for lst in ("one", "two")
             if c == ids[0] or draw(st.integers(0, 4))]      # (some off a list; each list names someone)
    prefs = {c: list(draw(st.permutations(posts))[:draw(st.integers(1, len(posts)))]) for c in ids}
    return ids, vacs, ranks, prefs
