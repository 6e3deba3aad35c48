"""Independent verification of an allocation (stage 5): trusts neither engine nor the pool reduction."""
from .checks import Violation, read_allocation, verify

__all__ = ["Violation", "read_allocation", "verify"]
