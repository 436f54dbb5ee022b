# UCI data stage (docs/protocol.md §1.1-1.2): fetch each raw file from the first source that has it,
# verify its SHA-256, and parse it into the canonical table with a JSON sidecar; a data set drawn
# by a generator (§1.4) is written in the same form by generate_dataset.


rule fetch_uci:
    wildcard_constraints:
        dataset=FILE_NAME,
    output:
        raw="data/raw/uci/{dataset}.data",
        receipt="data/raw/uci/{dataset}.source.json",
    params:
        code_sha256=package_digest(*DATA_JOB_CODE["fetch_uci"]),
        arguments=lambda wildcards, output: job_arguments(
            dataset=wildcards.dataset, spec=uci_spec(wildcards), fetch=fetch_config(),
            raw=output.raw, receipt=output.receipt),
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
    shell:
        job_command("fetch_uci")


rule parse_uci:
    wildcard_constraints:
        dataset=FILE_NAME,
    input:
        raw="data/raw/uci/{dataset}.data",
        receipt="data/raw/uci/{dataset}.source.json",
    output:
        table="data/processed/uci/{dataset}.csv",
        sidecar="data/processed/uci/{dataset}.json",
    params:
        code_sha256=package_digest(*DATA_JOB_CODE["parse_uci"]),
        arguments=lambda wildcards, input, output: job_arguments(
            dataset=wildcards.dataset, spec=uci_spec(wildcards), raw=input.raw,
            receipt=input.receipt, table=output.table, sidecar=output.sidecar),
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
    shell:
        job_command("parse_uci")


rule generate_dataset:
    wildcard_constraints:
        dataset=GENERATED_NAME,
    output:
        table="data/processed/uci/{dataset}.csv",
        sidecar="data/processed/uci/{dataset}.json",
    params:
        code_sha256=package_digest(*DATA_JOB_CODE["generate_dataset"]),
        arguments=lambda wildcards, output: job_arguments(
            dataset=wildcards.dataset, spec=uci_spec(wildcards),
            seed=config["experiment"]["seed"], table=output.table, sidecar=output.sidecar),
        generator_code=lambda wildcards: generator_code(uci_spec(wildcards)),
    log:
        "logs/generate_dataset/{dataset}.log",
    localrule: True
    priority: DATA_PRIORITY
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    conda:
        "../../environment.yml"
    shell:
        job_command("generate_dataset")


rule data:
    input:
        expand("data/processed/uci/{dataset}.csv", dataset=UCI_DATASETS),
