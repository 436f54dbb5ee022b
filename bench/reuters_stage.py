"""Benchmark: the Reuters stage from the raw SGML files to the ltc matrices (issue target: 60 s).

    python bench/reuters_stage.py [--mirror ../shared/data-mirror] [--repeat 3]

Runs ``weightboost.reuters.stage.build`` on the mirror's 22 SGML files and stop-word package
with the project's config (into a temporary directory) and prints the wall seconds of each
run, the best of them, and the stage's counts. The parse, split, text and feature steps are
also timed one by one for the first run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from weightboost.pipeline.config import load_config
from weightboost.reuters.corpus import modapte
from weightboost.reuters.stage import build, read_corpus
from weightboost.reuters.text import Analyzer, read_stopwords

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", default=str(ROOT.parent / "shared" / "data-mirror"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    options = load_config(ROOT / "config" / "config.yaml")["reuters"]
    mirror = Path(args.mirror)
    sgml = [mirror / options["folder"] / name for name in sorted(options["sgml"])]
    stopwords = mirror / options["stopwords"]["file"]

    start = time.perf_counter()
    report, excluded = read_corpus(sgml, options)
    parsed = time.perf_counter()
    split = modapte(report.documents, excluded)
    analyzer = Analyzer(read_stopwords(stopwords), options.get("stemmer", "original"))
    split_done = time.perf_counter()
    for d in split.train + split.test:
        analyzer(d.text)
    analyzed = time.perf_counter()
    print(f"parse {parsed - start:.2f} s, split {split_done - parsed:.2f} s, "
          f"text pipeline {analyzed - split_done:.2f} s (of {len(split.train) + len(split.test)} "
          "documents)")

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            start = time.perf_counter()
            stats = build(sgml, stopwords, options, Path(tmp, "m.npz"), Path(tmp, "v.tsv"),
                          Path(tmp, "s.json"))
            times.append(time.perf_counter() - start)
    print("whole stage (SGML to matrices, written): "
          + ", ".join(f"{t:.2f}" for t in times) + f" s; best {min(times):.2f} s (target 60 s)")
    print(f"documents {stats['n_train']} / {stats['n_test']}, categories "
          f"{stats['n_categories']}, vocabulary {stats['vocabulary_size']} (paper "
          f"{stats['paper_vocabulary_size']}), features {stats['n_features']}")


if __name__ == "__main__":
    main()
