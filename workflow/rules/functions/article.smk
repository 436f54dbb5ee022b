# The article's source, the files it reads of the sensitivity study, and their digests (the
# rule: workflow/rules/article.smk).

ARTICLE_DIR = Path(workflow.basedir) / "workflow" / "article"
ARTICLE_SETS = ("uci", "reuters") + (("regboost",) if config.get("regboost") else ())
# what the article reads of the sensitivity study, when it is there (its report's own outputs)
STUDY_FILES = [f"{REPORTS}/tables/{name}.csv" for name in
               ("verdicts", "sensitivity_duels", "questions", "question_duels")] + [
    f"{REPORTS}/figures/{name}.svg" for name in
    ("sensitivity_forest", "sensitivity_learners", "sensitivity_noise", "beta_curves")]


# and of the barrier study's (not part of `all` either)
BARRIER_FILES = [f"{REPORTS}/tables/barrier_answers.csv", f"{REPORTS}/figures/barrier.svg",
                 *set_files("barrier").values()]


def study_digests(wildcards):
    """Params function: the SHA-256 of the sensitivity and barrier studies' tables and report
    files that exist, which the article reads as they are (a params trigger: a rebuilt study
    reruns it)."""
    kinds = SENSITIVITY_SETS if SENSITIVITY else ()
    files = [path for kind in kinds for path in set_files(kind).values()] + STUDY_FILES
    files += BARRIER_FILES
    return {path: sha256_file(path) for path in files if Path(path).is_file()}
