# Reuters-21578 ApteMod stage (PROTOCOL.md §1.3): fetch and verify the 22 SGML files and NLTK's
# stop-word package, then parse, split, select 2,000 terms by chi2max and weight them (ltc).

REUTERS_SGML = sorted(config["reuters"]["sgml"])


rule fetch_reuters:
    output:
        sgml=expand("data/raw/reuters/{name}", name=REUTERS_SGML),
        stopwords="data/raw/reuters/stopwords.zip",
        receipt="data/raw/reuters/sources.json",
    params:
        reuters=config["reuters"],
        fetch=fetch_config(),
    log:
        "logs/fetch_reuters.log",
    localrule: True
    threads: 1
    resources:
        mem_mb=1024,
        runtime=30,
    conda:
        "../../environment.yml"
    script:
        "../scripts/fetch_reuters.py"


rule reuters_features:
    input:
        sgml=rules.fetch_reuters.output.sgml,
        stopwords=rules.fetch_reuters.output.stopwords,
        code=package_code("reuters"),
    output:
        matrices="data/processed/reuters/matrices.npz",
        vocabulary="data/processed/reuters/vocabulary.tsv",
        stats="data/processed/reuters/stats.json",
    params:
        reuters={k: v for k, v in config["reuters"].items() if k not in ("remotes",)},
    log:
        "logs/reuters_features.log",
    benchmark:
        "benchmarks/reuters_features.tsv"
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
