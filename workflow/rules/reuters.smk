# Reuters-21578 ApteMod stage (docs/protocol.md §1.3): fetch and verify the 22 SGML files (or, with
# reuters.source: nltk, NLTK's ApteMod package) and NLTK's stop-word package, then parse, split,
# select 2,000 terms by chi2max and weight them (ltc). The jobs are weightboost.data.jobs's.


rule fetch_reuters:
    output:
        files=expand("data/raw/reuters/{name}", name=REUTERS_SGML),
        receipt="data/raw/reuters/sources.json",
    params:
        code_sha256=package_digest(*DATA_JOB_CODE["fetch_reuters"]),
        arguments=fetch_reuters_arguments("sgml"),
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
    shell:
        job_command("fetch_reuters")


use rule fetch_reuters as fetch_stopwords with:
    output:
        files=["data/raw/reuters/stopwords.zip"],
        receipt="data/raw/reuters/stopwords.json",
    params:
        code_sha256=package_digest(*DATA_JOB_CODE["fetch_reuters"]),
        arguments=fetch_reuters_arguments("stopwords"),
    log:
        "logs/fetch_stopwords.log",
    localrule: True  # `use rule ... with:` does not inherit it


use rule fetch_reuters as fetch_reuters_nltk with:
    output:
        files=[NLTK_PACKAGE],
        receipt="data/raw/reuters/nltk/sources.json",
    params:
        code_sha256=package_digest(*DATA_JOB_CODE["fetch_reuters"]),
        arguments=fetch_reuters_arguments("nltk"),
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
        code_sha256=package_digest(*DATA_JOB_CODE["reuters_features"]),
        # where the raw files come from does not change the matrices; their pins do
        arguments=lambda wildcards, input, output: job_arguments(
            corpus=list(input.corpus), stopwords=input.stopwords[0],
            reuters=reuters_content(config["reuters"]), matrices=output.matrices,
            vocabulary=output.vocabulary, stats=output.stats),
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
    shell:
        job_command("reuters_features")


rule reuters:
    input:
        rules.reuters_features.output,
