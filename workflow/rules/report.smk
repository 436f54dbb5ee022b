# The report (docs/protocol.md §4): Tables 2-4 and Figure 1 beside the published numbers, the
# paper's claims checked, provenance. `snakemake --cores 2 report` rebuilds it from the tables
# under results/ (or results/runs/<run>/ for a named run) as they are, after checking that they
# match the config and their provenance records; it computes only tables that are missing
# (report_only in tables.smk). `snakemake all` brings the tables up to date first.

REPORT_SETS = ("uci", "reuters")  # the table sets the main report reads
report_tables = report_inputs(REPORT_SETS)
report_table_digests = given_digests(REPORT_SETS)


rule report:
    input:
        unpack(report_tables),
        reference=REFERENCE,
        notes=workflow.source_path("../report/notes.md"),
        lock=LOCK_FILE,
    output:
        html=report(f"{REPORTS}/report.html", caption="../report/report.rst",
                    category="Report"),
        md=f"{REPORTS}/report.md",
        figure1=report(f"{REPORTS}/figures/figure1.png", caption="../report/figure1.rst",
                       category="Figures"),
        noise=report(f"{REPORTS}/figures/noise_curves.png", caption="../report/noise.rst",
                     category="Figures"),
        f1=report(f"{REPORTS}/figures/reuters_f1_curves.png",
                  caption="../report/f1curves.rst", category="Figures"),
        table2=f"{REPORTS}/tables/table2.csv",
        table3=f"{REPORTS}/tables/table3.csv",
        table4=f"{REPORTS}/tables/table4.csv",
        claims=f"{REPORTS}/tables/claims.csv",
    params:
        script_sha256=script_digest("report.py"),
        code_sha256=package_digest(*REPORT_CODE),
        config=config,
        results=RESULTS,
        tables_sha256=report_table_digests,
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
