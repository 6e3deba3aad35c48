"""Independent verification of an allocation (stage 5): trusts neither engine nor the pool reduction."""
from .allocation import Allocation, Violation, read_allocation
from .checks import verify

__all__ = ["Allocation", "Violation", "read_allocation", "verify"]
