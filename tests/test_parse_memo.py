"""weightboost.pipeline.parse_memo: an answer of the workflow's parse is reused only for the same config
sections and code, and an error is never remembered."""

import pytest

from weightboost.pipeline import parse_memo
from weightboost.errors import ConfigError


@pytest.fixture
def memo(tmp_path, monkeypatch):
    monkeypatch.setattr(parse_memo, "DIRECTORY", tmp_path / "parse")
    calls = []

    def ask(config, answer="ok"):
        def compute():
            calls.append(answer)
            if isinstance(answer, Exception):
                raise answer
            return answer
        return parse_memo.remembered("check", config, compute)
    return ask, calls


def test_the_same_sections_and_code_reuse_the_answer(memo, monkeypatch):
    ask, calls = memo
    config = {"algorithms": {"A": {"learner": "C45"}}, "experiment": {"rounds": 3},
              "sensitivity": None, "mirror": "/somewhere"}
    assert ask(config) == "ok" and ask(config) == "ok" and calls == ["ok"]
    assert ask({**config, "mirror": "/elsewhere"}) == "ok" and calls == ["ok"]  # not read
    assert ask({**config, "experiment": {"rounds": 4}}) == "ok" and len(calls) == 2
    monkeypatch.setattr(parse_memo, "CODE", ("c45",))  # other code: another digest
    assert ask(config) == "ok" and len(calls) == 3


def test_removing_a_data_set_asks_again(memo):
    # the study's data sets must be configured ones: a config without one of them is another
    # question, though its sections are the same (its specs' contents are not read)
    ask, calls = memo
    config = {"sensitivity": {"datasets": ["german"]},
              "datasets": {"german": {"file": "a"}, "pima": {"file": "b"}}}
    assert ask(config) == "ok" and ask({**config, "datasets": {"german": {"file": "c"},
                                                                "pima": {}}}) == "ok"
    assert calls == ["ok"]
    with pytest.raises(ConfigError):
        ask({**config, "datasets": {"pima": {}}}, ConfigError("sensitivity.datasets: german"))


def test_an_error_is_raised_every_time(memo):
    ask, calls = memo
    config = {"algorithms": {"A": {"learner": "C45", "params": {"confidence": 2}}}}
    for _ in range(2):
        with pytest.raises(ConfigError):
            ask(config, ConfigError("algorithms.A.params: confidence"))
    assert len(calls) == 2


def test_an_unwritable_directory_computes_every_time(memo, tmp_path, monkeypatch):
    ask, calls = memo
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(parse_memo, "DIRECTORY", tmp_path / "file" / "parse")
    assert ask({}) == "ok" and ask({}) == "ok" and len(calls) == 2


def test_a_change_of_the_regboost_section_asks_again(memo):
    # the RegBoost study's plan is remembered too: a stale plan would silently read cells of
    # another number of repeats (found while building the study)
    ask, calls = memo
    config = {"regboost": {"repeats": 10, "datasets": ["sonar"]}}
    assert ask(config) == "ok" and ask({**config, "regboost": {"repeats": 1,
                                                               "datasets": ["sonar"]}}) == "ok"
    assert len(calls) == 2


def test_the_code_that_plans_is_in_the_digest():
    # every module the parse-time planners import (learners, readings, the studies) changes
    # the digest, so that an edit of one never reuses an answer of the code before it
    for part in ("stumps", "experiment/regboost.py", "experiment/sensitivity.py",
                 "experiment/learners.py", "semi_supervised.py"):
        assert part in parse_memo.CODE
