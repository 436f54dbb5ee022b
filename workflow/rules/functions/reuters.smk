# The Reuters stage's raw inputs and job arguments (the rules: workflow/rules/reuters.smk).
REUTERS_SGML = sorted(config["reuters"]["sgml"])
NLTK_PACKAGE = "data/raw/reuters/nltk/reuters.zip"


def reuters_receipts(wildcards):
    """The receipts of the raw Reuters files the stage read (corpus and stop words)."""
    corpus = ("data/raw/reuters/nltk/sources.json"
              if config["reuters"].get("source", "sgml") == "nltk"
              else "data/raw/reuters/sources.json")
    return [corpus, "data/raw/reuters/stopwords.json"]


def fetch_reuters_arguments(kind):
    """The job arguments of a fetch of the raw Reuters inputs of ``kind`` (sgml, stopwords,
    nltk: weightboost.data.jobs.fetch_reuters)."""
    return lambda wildcards, output: job_arguments(
        kind=kind, reuters=config["reuters"], fetch=fetch_config(), files=list(output.files),
        receipt=output.receipt)


def reuters_corpus(wildcards):
    """The corpus files the stage reads: the SGML files, or NLTK's package (reuters.source)."""
    if config["reuters"].get("source", "sgml") == "nltk":
        return [NLTK_PACKAGE]
    return expand("data/raw/reuters/{name}", name=REUTERS_SGML)
