"""The report: the paper's Tables 2-4 and Figure 1 regenerated beside the published numbers,
with the differences, the paper's claims checked, and the provenance of every number."""
