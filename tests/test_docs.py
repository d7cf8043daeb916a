"""Numbers printed in the documentation equal what the code computes."""

import re
from pathlib import Path

import numpy as np
import pytest

from explorer.core import datasets
from explorer.core.epsilon_meaning import attribute_codes, read_epsilon

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _table_rows(page: str, header_start: str) -> list[list[str]]:
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_choosing_epsilon_table_equals_the_code():
    labels, codes = attribute_codes(datasets.adult(), "marital-status")
    counts = np.bincount(codes)
    rows = _table_rows("choosing-epsilon.md", "| ε | odds factor")
    assert len(rows) == 5
    for row in rows:
        r = read_epsilon(float(row[0]), counts, labels=labels, codes=codes)
        computed = [f"{r.odds_bound:.1f}", f"{r.conditional_entropy:.3f}", f"{r.best_guess:.3f}", f"{r.t:.3f}",
                    f"{r.cluster.guessing:.3f}", f"{r.estimate_error:.4f}", f"{r.simulated_error:.4f}"]
        assert row[1:] == computed, f"epsilon = {row[0]}"


@pytest.mark.parametrize("page", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_docs_cite_papers_by_authors_not_file_codes(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    for name in ("PAPER_NOTES", "ARCHITECTURE.md", "DELIVERY.md"):
        assert name not in text, f"{page} points at {name}, which users do not have"
    codes = PAPER_CODE.findall(text)
    assert not codes, f"{page} cites papers by file code ({codes[:3]}): cite authors and year"


#: The papers' file codes as a reader would see them ("paper 003", "003 Eq. 5"), not digits of numbers.
PAPER_CODE = re.compile(r"(?<![\d.,/_-])00[0-4](?![\d_])")


def test_the_package_never_points_users_at_files_they_do_not_have():
    package = Path(__file__).resolve().parents[1] / "explorer"
    offenders = [f"{path.relative_to(package)}: {name}" for path in sorted(package.rglob("*.py"))
                 for name in ("PAPER_NOTES", "ARCHITECTURE.md", "DELIVERY.md")
                 if name in path.read_text(encoding="utf-8")]
    assert not offenders, offenders
