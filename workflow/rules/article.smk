# The replication article (docs/running.md, "The article"): both re-runs as one paper, PDF and
# HTML, typeset from workflow/article/ with every number read by name from this run's tables.
# It recomputes nothing: it reads what the report rules wrote, and the sensitivity study's
# tables and pages as they are where they exist (the study is not part of `all`).

rule article:
    input:
        unpack(report_inputs(ARTICLE_SETS)),
        rules.report.output,
        rules.regboost_report.output if config.get("regboost") else [],
        source=str(ARTICLE_DIR / "article.typ"),
        style=str(ARTICLE_DIR / "style.typ"),
        references=str(ARTICLE_DIR / "references.yml"),
        values=str(ARTICLE_DIR / "values.yaml"),
        protocol=str(Path(workflow.basedir) / "docs" / "protocol.md"),
    output:
        pdf=f"{REPORTS}/article.pdf",
        html=report(f"{REPORTS}/article.html", caption="../report/article.rst",
                    category="Report"),
        values=f"{REPORTS}/tables/values.csv",
    params:
        script_sha256=script_digest("article.py"),
        code_sha256=package_digest(*REPORT_CODE),
        config=config,
        results=RESULTS,
        run=config.get("run", "main"),
        study_sha256=study_digests,
        tables_sha256=given_digests(ARTICLE_SETS),
    log:
        "logs/article.log",
    localrule: True
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    conda:
        "../../environment.yml"
    script:
        "../scripts/article.py"
