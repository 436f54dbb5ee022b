"""Reuters-21578 ApteMod stage (docs/protocol.md §1.3, docs/algorithms.md §6): SGML parsing (``sgml``),
the ModApte split and category filter (``corpus``), text processing (``text``), χ² feature
selection and ltc weighting (``features``), and the stage that ties them (``stage``)."""
