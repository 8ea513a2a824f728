"""evaluation.assignment.solver: scipy's linear_sum_assignment without importing scipy.optimize."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from spia_core.evaluation.assignment import solver


def test_the_solver_gives_scipys_assignments() -> None:
    from scipy.optimize import linear_sum_assignment

    rng = np.random.default_rng(3)
    for _ in range(300):
        shape = tuple(int(n) for n in rng.integers(1, 7, size=2))
        matrix = rng.integers(0, 4, size=shape).astype(float)  # ties on purpose
        for maximize in (True, False):
            ours = solver()(matrix, maximize=maximize)
            theirs = linear_sum_assignment(matrix, maximize=maximize)
            assert all((a == b).all() for a, b in zip(ours, theirs, strict=True))


def test_a_fresh_process_loads_it_without_scipy_optimize() -> None:
    code = (
        "import sys\n"
        "from spia_core.evaluation.assignment import solver\n"
        "f = solver()\n"
        "assert 'scipy.optimize' not in sys.modules, 'scipy.optimize was imported'\n"
        "import scipy.optimize\n"
        "assert scipy.optimize.linear_sum_assignment is f\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
