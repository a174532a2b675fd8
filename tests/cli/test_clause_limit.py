"""Documents over limits.max_clauses, or pairs of unsettled clauses over limits.max_clause_pairs, are refused before embedding, in one line."""

import yaml

from tests.cli.test_compare import assert_user_error, run
from tests.conftest import FAST_CONFIG


def test_too_many_clauses_is_refused_up_front(tmp_path):
    config = tmp_path / "small.yaml"
    config.write_text(yaml.safe_dump({**FAST_CONFIG, "limits": {"max_clauses": 20}}))
    many = tmp_path / "many.txt"
    many.write_text("".join(f"{i}. The Supplier shall deliver order {i} within {i} days.\n\n" for i in range(1, 31)))
    few = tmp_path / "few.txt"
    few.write_text("1. The Supplier shall deliver the Goods within 30 days.\n")
    proc = run("compare", "--config", config, "--out", tmp_path / "out", few, many)
    assert_user_error(proc, "many.txt has 30 clauses, over the limit of 20")
    proc = run("compare", "--config", config, many, few)  # the reference: refused all the same
    assert_user_error(proc, "many.txt has 30 clauses")
    assert "limits.max_clauses" in proc.stderr
    assert not (tmp_path / "out").exists()
    assert run("compare", "--config", config, few, few).returncode == 0


def test_too_many_clause_pairs_is_refused_up_front(tmp_path):
    config = tmp_path / "small.yaml"
    config.write_text(yaml.safe_dump({**FAST_CONFIG, "limits": {"max_clause_pairs": 100}}))
    doc = tmp_path / "doc.txt"
    doc.write_text("".join(f"{i}. The Supplier shall deliver order {i} within {i} days.\n\n" for i in range(1, 12)))
    few = tmp_path / "few.txt"
    few.write_text("".join(f"{i}. The Customer shall pay invoice {i}.\n\n" for i in range(1, 10)))
    other = tmp_path / "other.txt"
    other.write_text(doc.read_text().replace("deliver", "ship"))
    assert_user_error(run("compare", "--config", config, doc, other), "leaves 11 x 11 clauses")
    proc = run("compare", "--config", config, doc, other)
    assert "121 clause pairs, over the limit of 100" in proc.stderr and "limits.max_clause_pairs" in proc.stderr
    assert run("compare", "--config", config, doc, few).returncode == 0  # 99 pairs
    # identical clauses are settled before retrieval: a document against itself leaves nothing to match
    assert run("compare", "--config", config, doc, doc).returncode == 0
