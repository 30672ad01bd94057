"""The battlefield: hex and tabletop terrain graphs, line of sight, cover and paths.

>>> t = build_terrain({"kind": "hex", "rows": ["..W..", "....."]})
>>> t.los("0,0", "4,0"), t.los("0,0", "2,0"), t.distance("0,0", "3,1")
(False, True, 4.0)
"""
from sim.space.build import build_terrain
from sim.space.features import BUILTIN, Area, TerrainType
from sim.space.hex_coords import (
    axial_to_offset,
    axial_to_xy,
    cube_round,
    hex_distance,
    hex_line,
    neighbours,
    node_id,
    offset_to_axial,
)
from sim.space.path_trees import NoPath
from sim.space.terrain import Terrain

__all__ = [
    "BUILTIN", "Area", "NoPath", "Terrain", "TerrainType", "axial_to_offset", "axial_to_xy",
    "build_terrain", "cube_round", "hex_distance", "hex_line", "neighbours", "node_id",
    "offset_to_axial",
]
