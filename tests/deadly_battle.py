"""A battle function for tests/test_study_dask_faults.py: while the file named by
$SIM_DEADLY_MARKER exists, the replications with a seed listed in it kill the worker
process that runs them (as the OOM killer would); otherwise it is the real battle."""
from __future__ import annotations

import os

from sim.replication import run_battle as real_run_battle


def run_battle(scenario, seed):
    """The real battle, unless this seed is marked deadly: then the process dies."""
    marker = os.environ.get("SIM_DEADLY_MARKER", "")
    if marker and os.path.exists(marker):
        with open(marker) as fh:
            if str(seed) in fh.read().split():
                os._exit(9)
    return real_run_battle(scenario, seed)
