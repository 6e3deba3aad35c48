"""Reservation in promotion: the policy of a promotion, derived from a policy's `[promotion]` table (a reduction
ahead of the chain: the rest of the chain solves a promotion as it solves a recruitment, with these rules).

- Only the categories `promotion.categories` names are reserved (Bihar Act 1991 s.4(2), second proviso: "in
  case of promotion, reservation shall be made only for Scheduled Castes/Scheduled Tribes in the same
  proportion"; Bill 2004 s.3(2): SC and ST). The others keep their members, who compete for the unreserved
  vacancies, and have no vacancies of their own (share 0), no exchange and no fallback.
- Each share is the direct-recruitment one (`"direct"`), a prescribed number, or the Act's datum the policy
  must be given (Manipur Act 1976 s.4(2)(b): the lower grade's SC or ST share on 1 April 1976), never above
  its `cap` (the population share, ibid.).
- The promotion roster has its own length (Bihar s.6(1): 50 points) and, in the register, its own stream
  (s.6(2): "separate running rosters for recruitment and promotion").
- No horizontal reservation: the Acts reserve horizontally (women, ex-servicemen) at direct recruitment only.
- De-reservation as `promotion.dereserve` says (Bill 2004 s.11(2): reserved promotion vacancies "shall be
  filled only by" SC and ST).
- The method decides the order of compartments (`Policy.compartment_order`).
"""
from __future__ import annotations

from ..errors import Unsupported
from .schema import Policy


def promotion_policy(policy: Policy) -> Policy:
    """The policy a promotion is solved under (idempotent: a derived policy derives itself).

    Parameters
    ----------
    policy : a policy with a `[promotion]` table.

    Returns
    -------
    Policy with ``recruitment = "promotion"``: the promotion's categories, shares, roster and de-reservation.

    Raises
    ------
    Unsupported (exit 3) where the policy has no `[promotion]` table or leaves a share to be given.

    Example
    -------
    >>> from solver import load_policy
    >>> p = promotion_policy(load_policy("bihar-1991"))
    >>> [(c.code, c.share) for c in p.categories if c.share], p.roster.points
    ([('SC', 0.16), ('ST', 0.01)], 50)
    """
    prom = policy.promotion
    if prom is None:
        raise Unsupported(f"{policy.name} declares no reservation in promotion ([promotion] table): "
                          f"{policy.source} reserves at direct recruitment only (Maharashtra Act 2001 s.4(2): \"at "
                          "the stage of direct recruitment\"); solving a promotion under it as direct recruitment "
                          "would be wrong")
    shares = _shares(policy)
    kept = set(shares)
    data = policy.model_dump(by_alias=True)
    for c in data["categories"]:
        c["share"] = shares.get(c["code"], 0.0)
        if c["code"] in kept:
            c["source"] = next(p.source for p in prom.categories if p.code == c["code"]) or c["source"]
        else:
            c["source"] = f"not reserved in promotion ({prom.source or 'promotion.categories'})"
    data["exchange"] = [g for g in data["exchange"] if set(g["categories"]) <= kept]
    data["fallback"] = [{**f, "to": [x for x in f["to"] if x in kept]} for f in data["fallback"]
                        if f["from"] in kept and any(x in kept for x in f["to"])]
    if prom.roster_points is not None:
        data["roster"]["points"] = prom.roster_points
    data["horizontal"]["traits"] = []
    data["probation"] = None   # s.8(3) is of recruitment ("may be recruited on probation")
    if prom.dereserve is not None:
        data["unfilled"]["dereserve"] = prom.dereserve
    data["recruitment"] = "promotion"
    return Policy.model_validate(data)


def _shares(policy: Policy) -> dict[str, float]:
    """Each category reserved in promotion and its share: the direct-recruitment one or the number given, at
    most its cap; a share left to be given (the Act's datum) is refused."""
    shares = {}
    for p in policy.promotion.categories:
        if p.share is None:
            raise Unsupported(f"{policy.name}: the promotion share of {p.code} is the Act's datum, not given "
                              f"({p.source or 'promotion.categories'}); give it: override "
                              f"promotion.categories.{p.code}.share=...")
        share = policy.category(p.code).share if p.share == "direct" else float(p.share)
        shares[p.code] = min(share, p.cap) if p.cap is not None else share
    return shares
