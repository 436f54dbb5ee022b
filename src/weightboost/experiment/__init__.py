"""The experiment protocol (docs/protocol.md §2): folds, label noise, learners from config, the UCI and
Reuters cells that the workflow runs, and the tables they aggregate into."""
