# Reuters-21578 ApteMod stage (docs/protocol.md §1.3): fetch and verify the 22 SGML files (or, with
# reuters.source: nltk, NLTK's ApteMod package) and NLTK's stop-word package, then parse, split,
# select 2,000 terms by chi2max and weight them (ltc).

rule fetch_reuters:
    output:
        files=expand("data/raw/reuters/{name}", name=REUTERS_SGML),
        receipt="data/raw/reuters/sources.json",
    params:
        script_sha256=script_digest("fetch_reuters.py"),
        kind="sgml",
        reuters=config["reuters"],
        fetch=fetch_config(),
    log:
        "logs/fetch_reuters.log",
    localrule: True
    priority: DATA_PRIORITY
    threads: 1
    resources:
        mem_mb=1024,
        runtime=30,
    conda:
        "../../environment.yml"
    script:
        "../scripts/fetch_reuters.py"


use rule fetch_reuters as fetch_stopwords with:
    output:
        files=["data/raw/reuters/stopwords.zip"],
        receipt="data/raw/reuters/stopwords.json",
    params:
        kind="stopwords",
        reuters=config["reuters"],
        fetch=fetch_config(),
    log:
        "logs/fetch_stopwords.log",
    localrule: True  # `use rule ... with:` does not inherit it


use rule fetch_reuters as fetch_reuters_nltk with:
    output:
        files=[NLTK_PACKAGE],
        receipt="data/raw/reuters/nltk/sources.json",
    params:
        kind="nltk",
        reuters=config["reuters"],
        fetch=fetch_config(),
    log:
        "logs/fetch_reuters_nltk.log",
    localrule: True  # `use rule ... with:` does not inherit it


rule reuters_features:
    input:
        corpus=reuters_corpus,
        stopwords=rules.fetch_stopwords.output.files,
    output:
        matrices="data/processed/reuters/matrices.npz",
        vocabulary="data/processed/reuters/vocabulary.tsv",
        stats="data/processed/reuters/stats.json",
    params:
        script_sha256=script_digest("reuters_features.py"),
        code_sha256=package_digest("reuters"),
        # where the raw files come from does not change the matrices; their pins do
        reuters=reuters_content(config["reuters"]),
    log:
        "logs/reuters_features.log",
    benchmark:
        "benchmarks/reuters_features.tsv"
    priority: DATA_PRIORITY
    threads: 1
    resources:
        mem_mb=4096,
        runtime=10,
    conda:
        "../../environment.yml"
    script:
        "../scripts/reuters_features.py"


rule reuters:
    input:
        rules.reuters_features.output,
