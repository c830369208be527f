"""Opening-draw probabilities: exact sums of the multivariate hypergeometric distribution over groups of
cards, each game's opening rules, seeded Monte Carlo cross-checks and sample hands.

``exact``, ``openings`` and ``montecarlo`` are pure (no database, no files); ``service`` reads decks and
runs the needs' queries through the database; ``plot`` writes PNGs.
"""

from cardbase.draws.exact import Groups, HandCounts, Kind, Need, joint, joint_table, probability

__all__ = ["Groups", "HandCounts", "Kind", "Need", "joint", "joint_table", "probability"]
