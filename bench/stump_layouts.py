"""Benchmark: the stump scan with every feature read candidate by candidate, every feature read
by position, and as ``prepare_stumps`` lays them out (``weightboost.stumps.search``: a feature
is read by position when ``BY_POSITION_SHARE`` times its candidates reach its points).

    python bench/stump_layouts.py [--share 0.72] [--repeats 5] [--seed 0]

For each of the RegBoost study's four sets, one training set of ``--share`` of the rows (an
inner training fold of RegBoostCV), its stumps and 8-NN graph prepared once; then the scan
(λ = 0.1, R1) with random weights, a thousand times in one compiled loop per layout, best of
``--repeats``. Prints the features read by position as prepared, the candidates against the
sorted positions, and µs per scan for each layout. The three choose alike, bit for bit
(checked here on the weights timed, and in tests/test_regboost.py); only their time differs.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

# bench/, beside this script
from regboost_rounds import best, fold_arguments, signed_labels, timed, training_fold
from round_floor import DATASETS, scans
from weightboost.stumps.search import scan

SCANS = 1000


def main():
    args = fold_arguments(__doc__, repeats=5)
    rng = np.random.default_rng(args.seed)
    print(f"{'dataset':>14}{'by position':>13}{'candidates':>12}{'positions':>11}"
          f"{'µs candidates':>15}{'µs positions':>14}{'µs prepared':>13}")
    for name in DATASETS:
        data, y_rows = training_fold(name, args.data, args.share, rng)
        signed = signed_labels(y_rows)
        d = data.X.shape[1]
        layouts = [replace(data, by_position=np.zeros(d, dtype=bool)),
                   replace(data, by_position=np.ones(d, dtype=bool)), data]
        weights = rng.random(len(signed)) * len(signed)
        choices = {scan(layout, weights, signed, 0.1, "R1")[:4] for layout in layouts}
        assert len(choices) == 1, name  # the same choice, edge and count in every layout
        micro = []
        for layout in layouts:
            scans(layout.scan_arrays, signed, 3, weights)  # compile outside the timing
            micro.append(best(lambda: timed(lambda: scans(layout.scan_arrays, signed, SCANS,
                                                          weights))[0], args.repeats)
                         / SCANS * 1e6)
        print(f"{name:>14}{f'{int(data.by_position.sum())}/{d}':>13}{data.n_candidates:>12}"
              f"{d * data.X.shape[0]:>11}{micro[0]:15.2f}{micro[1]:14.2f}{micro[2]:13.2f}")


if __name__ == "__main__":
    main()
