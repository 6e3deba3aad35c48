"""Policy files: schema, loading and `--set` overrides."""
from .load import load_policy, resolve_policy_path
from .schema import Policy

__all__ = ["Policy", "load_policy", "resolve_policy_path"]
