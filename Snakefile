# weightboost-repro: reproduce Jin et al. (ICML 2003) and Wang & Kégl (NIPS 2004). The workflow
# lives in workflow/; this file only makes its `all` rule the default target (an included file
# cannot).
include: "workflow/Snakefile"


rule default:
    default_target: True
    input:
        rules.all.input,
