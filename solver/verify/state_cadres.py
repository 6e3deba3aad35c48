"""`verify --stage cadre`: a cadre allocation of the All India Services checked against the policy's `[cadre]` rule
(`solver.policy.stages.CadreRule`), derived here from the rule's words and the inputs, not from the engine
(`solver.exam.cadres`). Each check returns its findings (`Broken`), empty when the rule holds:

- `placed_once`: every officer known, placed at most once, in a cadre the vacancies file names, counted in his
  category;
- `insiders`: an insider only in his home cadre and only if he opted for it; an outsider never in his home cadre;
- `capacity`: per cadre and category, insiders within the insider vacancies, outsiders within the outsider ones
  and the insider vacancies left unfilled where the rule turns them outsider;
- `insider_merit`: each cadre's insider vacancies of a category go to its best-ranked opting officers of that
  category, as many as there are;
- `outsider_waste`: nobody is placed below a cadre he ranked (or left without one) while that cadre keeps an
  outsider vacancy of his category empty;
- `outsider_turns`: nobody is passed over at a cadre he ranked above his own by an outsider whose turn came
  after his (a later cycle, or later in the same cycle), unless the cadre had already had an outsider in his
  cycle before his turn and his own cadre had not."""
from __future__ import annotations

from ..io.cadres import CadreProblem
from ..io.tables import read_table
from ..policy import Policy
from .allocation import Broken
from ..data.words import article

SOURCE = "DoPT Cadre Allocation Policy, 23 January 2026 (as reported; the OM's text was not read)"


def read_cadres(path, p: CadreProblem) -> tuple[dict[int, tuple[int, str]], list[Broken]]:
    """cadres.csv's placements: officer index -> (cadre index, kind); rows naming unknown officers or cadres, or
    an officer twice, are findings."""
    t = read_table(path, ["candidate_id", "cadre", "kind"], [])
    index = {cid: i for i, cid in enumerate(p.ids)}
    cadres = {c: j for j, c in enumerate(p.cadres)}
    placed, out = {}, []
    for r in range(len(t)):
        cid, cadre, kind = str(t["candidate_id"][r]), str(t["cadre"][r]), str(t["kind"][r])
        if cid not in index:
            out.append(Broken(f"line {t.line[r]}: {cid} is not among the officers", candidate=cid))
        elif index[cid] in placed:
            out.append(Broken(f"line {t.line[r]}: {cid} is placed twice", candidate=cid))
        elif cadre == "" and kind == "":
            continue
        elif cadre not in cadres or kind not in ("insider", "outsider"):
            out.append(Broken(f"line {t.line[r]}: {cid} is placed in {cadre!r} as {kind!r}: the cadres are the "
                              "vacancies file's, the kinds insider and outsider", candidate=cid, post=cadre))
        else:
            placed[index[cid]] = (cadres[cadre], kind)
    return placed, out


def check_cadres(policy: Policy, p: CadreProblem, placed: dict[int, tuple[int, str]]) -> list[Broken]:
    """Every rule of the module's text, in order."""
    rule = policy.cadre
    return (insiders(p, placed) + capacity(rule, p, placed) + insider_merit(p, placed)
            + outsider_waste(rule, p, placed) + outsider_turns(rule, p, placed))


def insiders(p: CadreProblem, placed) -> list[Broken]:
    out = []
    for i, (j, kind) in sorted(placed.items()):
        if kind == "insider" and (j != p.home[i] or not p.opted[i]):
            why = "not his home cadre" if j != p.home[i] else "he did not opt for his home cadre"
            out.append(Broken(f"{p.ids[i]} is an insider in {p.cadres[j]}: {why}", p.ids[i], p.cadres[j]))
        if kind == "outsider" and j == p.home[i]:
            out.append(Broken(f"{p.ids[i]} is an outsider in his home cadre {p.cadres[j]}", p.ids[i], p.cadres[j]))
    return out


def _held(p: CadreProblem, placed, kind: str) -> dict[tuple[int, str], list[int]]:
    """Officers of `kind` per (cadre, category), in rank order."""
    out: dict[tuple[int, str], list[int]] = {}
    for i, (j, k) in sorted(placed.items()):
        if k == kind:
            out.setdefault((j, p.category[i]), []).append(i)
    return out


def _outsider_room(rule, p: CadreProblem, placed) -> dict[tuple[int, str], int]:
    """The outsider vacancies of each cadre and category: the file's, and the insider ones left unfilled where
    the rule makes them outsider vacancies that year."""
    ins = _held(p, placed, "insider")
    room = dict(p.outsider)
    if rule.unfilled_insider == "outsider":
        for key, k in p.insider.items():
            room[key] = room.get(key, 0) + max(k - len(ins.get(key, [])), 0)
    return room


def capacity(rule, p: CadreProblem, placed) -> list[Broken]:
    out = []
    room = _outsider_room(rule, p, placed)
    for kind, limit in (("insider", p.insider), ("outsider", room)):
        for key, held in sorted(_held(p, placed, kind).items()):
            if len(held) > limit.get(key, 0):
                out.append(Broken(f"{len(held)} {kind}s of {key[1]} in {p.cadres[key[0]]}, for "
                                  f"{limit.get(key, 0)} {kind} vacancies ({SOURCE})", post=p.cadres[key[0]]))
    return out


def insider_merit(p: CadreProblem, placed) -> list[Broken]:
    out = []
    ins = _held(p, placed, "insider")
    for key, k in sorted(p.insider.items()):
        wanting = [i for i in range(len(p.ids)) if p.opted[i] and p.home[i] == key[0] and p.category[i] == key[1]]
        due = set(wanting[:k])
        got = set(ins.get(key, []))
        for i in sorted(due - got):
            out.append(Broken(f"{p.ids[i]} (rank {p.rank[i]}) opted for his home cadre {p.cadres[key[0]]}, where a "
                              f"{key[1]} insider vacancy went to a lower rank or was left unfilled ({SOURCE})",
                              p.ids[i], p.cadres[key[0]]))
    return out


def outsider_waste(rule, p: CadreProblem, placed) -> list[Broken]:
    room = _outsider_room(rule, p, placed)
    held = _held(p, placed, "outsider")
    empty = {key: k - len(held.get(key, [])) for key, k in room.items() if k > len(held.get(key, []))}
    passed = _passed(rule, p, placed)
    out = []
    for i in range(len(p.ids)):
        if placed.get(i, (None, ""))[1] == "insider":
            continue
        own = placed.get(i, (None, ""))[0]
        spare = [j for (j, c), k in empty.items() if c == p.category[i] and j != p.home[i] and k > 0]
        if own is None and spare:
            out.append(Broken(f"{p.ids[i]} has no cadre, while {p.cadres[min(spare)]} keeps {article(p.category[i])} {p.category[i]} "
                              f"outsider vacancy empty ({SOURCE})", p.ids[i], p.cadres[min(spare)]))
            continue
        for j in p.preferences[i]:
            if j == own:
                break
            if j != p.home[i] and empty.get((j, p.category[i]), 0) > 0 and not passed(i, j):
                where = f"holds {p.cadres[own]}" if own is not None else "has no cadre"
                out.append(Broken(f"{p.ids[i]} {where}, while {p.cadres[j]}, which he ranked above it, keeps a "
                                  f"{p.category[i]} outsider vacancy empty ({SOURCE})", p.ids[i], p.cadres[j]))
                break
    return out


def _passed(rule, p: CadreProblem, placed):
    """passed(i, j): outsider i rightly passed cadre j by, though he ranked it above his own: with one outsider a
    cadre a cycle, j had had its outsider in i's cycle before his turn, and i took a cadre he ranked that had
    not (a cadre already taken this cycle is his only where every cadre he ranked with room was)."""
    outs = {i: j for i, (j, kind) in placed.items() if kind == "outsider"}
    turn = {i: _turn(rule, p, i) for i in range(len(p.ids))}
    first: dict[tuple[int, int], tuple] = {}      # (cycle, cadre) -> the earliest turn an outsider took it
    for z, j in outs.items():
        first[(turn[z][0], j)] = min(first.get((turn[z][0], j), turn[z]), turn[z])

    def taken_before(j: int, i: int) -> bool:
        return first.get((turn[i][0], j), turn[i]) < turn[i]

    def passed(i: int, j: int) -> bool:
        own = outs.get(i)
        return (rule.one_per_cycle and taken_before(j, i) and own is not None and own in p.preferences[i]
                and not taken_before(own, i))
    passed.turn = turn
    return passed


def _turn(rule, p: CadreProblem, i: int) -> tuple:
    """When an outsider's turn comes: cycles of `rule.cycle` ranks (a PwBD officer before all of them where
    `pwbd_first = "all"`), PwBD first within a cycle where `pwbd_first = "cycle"`, then rank."""
    cycle = -1 if rule.pwbd_first == "all" and p.pwbd[i] else int(p.rank[i] - 1) // rule.cycle
    return cycle, 0 if rule.pwbd_first == "cycle" and p.pwbd[i] else 1, int(p.rank[i])


def outsider_turns(rule, p: CadreProblem, placed) -> list[Broken]:
    outs = {i: j for i, (j, kind) in placed.items() if kind == "outsider"}
    passed = _passed(rule, p, placed)
    turn = passed.turn
    last: dict[tuple[int, str], int] = {}         # (cadre, category) -> the outsider there whose turn came last
    for z, j in outs.items():
        if (j, p.category[z]) not in last or turn[last[(j, p.category[z])]] < turn[z]:
            last[(j, p.category[z])] = z
    out = []
    for i in range(len(p.ids)):
        if placed.get(i, (None, ""))[1] == "insider":
            continue
        own = outs.get(i)
        for j in p.preferences[i]:
            if j == own:
                break
            y = last.get((j, p.category[i]))
            if j == p.home[i] or y is None or turn[y] <= turn[i] or passed(i, j):
                continue
            out.append(Broken(f"{p.ids[i]} (rank {p.rank[i]}) ranked {p.cadres[j]} above "
                              f"{p.cadres[own] if own is not None else 'what he got'}, yet {p.ids[y]}, whose turn "
                              f"came after his, holds {article(p.category[i])} {p.category[i]} outsider vacancy there ({SOURCE})",
                              p.ids[i], p.cadres[j]))
            break
    return out
