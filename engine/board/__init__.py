"""Board topology (a networkx graph) and layouts (terrain, numbers, harbors)."""

from engine.board.layouts import BoardLayout, beginner_layout, make_layout, variable_layout
from engine.board.topology import Topology, standard_topology

__all__ = [
    "BoardLayout",
    "Topology",
    "beginner_layout",
    "make_layout",
    "standard_topology",
    "variable_layout",
]
