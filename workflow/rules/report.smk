# The report (PROTOCOL.md §4): Tables 2-4 and Figure 1 beside the published numbers, the
# paper's claims checked, provenance. `snakemake --cores 2 report` rebuilds it from results/.


rule report:
    input:
        folds="results/uci_folds.csv",
        summary="results/uci_summary.csv",
        f1="results/reuters_f1.csv",
        curves="results/reuters_curves.csv",
        reference=REFERENCE,
        notes=workflow.source_path("../report/notes.md"),
        code=package_code("report"),
    output:
        html=report("reports/report.html", caption="../report/report.rst",
                    category="Report"),
        md="reports/report.md",
        figure1=report("reports/figures/figure1.png", caption="../report/figure1.rst",
                       category="Figures"),
        noise=report("reports/figures/noise_curves.png", caption="../report/noise.rst",
                     category="Figures"),
        f1=report("reports/figures/reuters_f1_curves.png", caption="../report/f1curves.rst",
                  category="Figures"),
        table2="reports/tables/table2.csv",
        table3="reports/tables/table3.csv",
        table4="reports/tables/table4.csv",
        claims="reports/tables/claims.csv",
    params:
        config=config,
    log:
        "logs/report.log",
    localrule: True
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    conda:
        "../../environment.yml"
    script:
        "../scripts/report.py"
