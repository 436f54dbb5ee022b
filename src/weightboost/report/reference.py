"""The published figures (``config/reference/jin2003_tables.yaml``, a copy of
``shared/reference``) and the mapping between the paper's names and the pipeline's keys."""

from __future__ import annotations

from weightboost.fileio import read_yaml

# the published figures of each paper, relative to the project's root
JIN2003 = "config/reference/jin2003_tables.yaml"
WANG_KEGL2004 = "config/reference/wang_kegl2004_table1.yaml"

DATASETS = {  # paper row name -> dataset key
    "Ionosphere": "ionosphere", "German": "german", "Pima": "pima",
    "Breast Cancer": "breast_cancer", "wpbc": "wpbc", "wdbc": "wdbc", "Contraceptive": "cmc",
    "Spambase": "spambase",
    "Sonar": "sonar",  # RegBoost's fourth set (not in Jin et al.)
}
ALGORITHMS = {  # paper column name -> algorithm name in the result tables
    "C4.5": "C4.5", "AdaBoost": "AdaBoost", "Weight Decay": "WeightDecay",
    "epsilon-Boost": "EpsilonBoost", "WeightBoost": "WeightBoost",
}
DISPLAY = {v: k for k, v in DATASETS.items()}


def load_reference(path) -> dict:
    return read_yaml(path)


def table2(reference: dict) -> dict[tuple[str, str], float]:
    """(dataset, algorithm) -> published error % without noise."""
    t = reference["table2_error_no_noise"]
    return {(DATASETS[row], ALGORITHMS[col]): value
            for row, values in t["rows"].items() for col, value in zip(t["columns"], values)}


def table4(reference: dict) -> dict[tuple[float, str, str], float]:
    """(noise, dataset, algorithm) -> published error % with label noise."""
    t = reference["table4_error_with_noise"]
    out = {}
    for key, rows in t.items():
        if not key.startswith("noise_"):
            continue
        noise = int(key.split("_")[1]) / 100
        for row, values in rows.items():
            for col, value in zip(t["columns"], values):
                out[(noise, DATASETS[row], ALGORITHMS[col])] = value
    return out


def table3(reference: dict) -> dict[tuple[str, str], float]:
    """(category, algorithm) -> published F1 at the paper's tuned T."""
    t = reference["table3_reuters_f1"]
    out = {}
    for category, values in t["rows"].items():
        out[(category, "C4.5")] = values[0]
        out[(category, "AdaBoost")] = values[1]
        out[(category, "WeightBoost")] = values[3]
    return out
