"""The chain: policy + inputs -> vacancy determination (`vacancy`) -> seat pools (`pools`, `eligibility`,
`overall`, `selection`) -> an engine (`engines`, filling compartments by `compartment`'s choice rule) -> the
chain inverted. `reductions` holds the stages as reductions and their `Chain`; `solve` is the chain, an
engine and the inverse."""
