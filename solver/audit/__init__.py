"""Contested outcomes: the questions only the CP-SAT model can answer. `audit()` proves the
official allocation unique or finds who is contested; answers `--ask` questions with an allocation (yes) or
the rules and candidates that block it (no)."""
from .audit import AuditResult, audit, official, outcome
from .questions import Question, parse

__all__ = ["AuditResult", "Question", "audit", "official", "outcome", "parse"]
