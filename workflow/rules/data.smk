# UCI data stage (docs/protocol.md §1.1-1.2): fetch each raw file from the first source that has it,
# verify its SHA-256, and parse it into the canonical table with a JSON sidecar.


rule fetch_uci:
    output:
        raw="data/raw/uci/{dataset}.data",
        receipt="data/raw/uci/{dataset}.source.json",
    params:
        script_sha256=script_digest("fetch_uci.py"),
        spec=uci_spec,
        fetch=fetch_config(),
    log:
        "logs/fetch_uci/{dataset}.log",
    localrule: True
    priority: DATA_PRIORITY
    threads: 1
    resources:
        mem_mb=512,
        runtime=15,
    conda:
        "../../environment.yml"
    script:
        "../scripts/fetch_uci.py"


rule parse_uci:
    input:
        raw="data/raw/uci/{dataset}.data",
        receipt="data/raw/uci/{dataset}.source.json",
    output:
        table="data/processed/uci/{dataset}.csv",
        sidecar="data/processed/uci/{dataset}.json",
    params:
        script_sha256=script_digest("parse_uci.py"),
        code_sha256=package_digest("data/uci.py"),
        spec=uci_spec,
    log:
        "logs/parse_uci/{dataset}.log",
    # a second of work: on a cluster a submission (queue wait, Snakemake's start on the node)
    # would cost more than the parse, and hold back the cells behind it
    localrule: True
    priority: DATA_PRIORITY
    threads: 1
    resources:
        mem_mb=1024,
        runtime=5,
    conda:
        "../../environment.yml"
    script:
        "../scripts/parse_uci.py"


rule data:
    input:
        expand("data/processed/uci/{dataset}.csv", dataset=UCI_DATASETS),
