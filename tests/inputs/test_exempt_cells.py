"""The `exempt` column names a ground of exemption (SPEC.md, vacancies.csv; the Act's `[exemptions]`). A cell
that reads as a boolean (formats.md's words for boolean cells) is read as one: `false`, `no`, `0` leave the row
reserved, where they were once taken for a ground and exempted the whole row; `true`, `yes`, `1` name no ground
and are refused at their line and column."""
import pytest
from conftest import write_csv
from typer.testing import CliRunner

from solver.cli import app


def solve(tmp_path, exempt):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"],
              [(f"C{i}", i, "OBC" if i % 3 == 0 else "UR") for i in range(1, 13)])
    head = ["post", "category", "vacancies"] + (["exempt"] if exempt is not None else [])
    write_csv(tmp_path / "v.csv", head, [["P", "TOTAL", 6] + ([exempt] if exempt is not None else [])])
    out = tmp_path / f"out{abs(hash(exempt))}"
    r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--engine", "greedy", "--out", str(out)])
    return r, out


@pytest.mark.parametrize("cell", ["false", "No", "0", " FALSE ", ""])
def test_a_false_exempt_cell_keeps_the_reservation(tmp_path, cell):
    """Six vacancies on central-dopt's 200-point roster: its first six points give one OBC and five UR; the same
    with the cell false as without the column (DoPT OM 02.07.1997)."""
    r, out = solve(tmp_path, cell)
    assert r.exit_code == 0, r.output
    plain_r, plain = solve(tmp_path, None)
    assert (out / "unfilled.csv").read_text() == (plain / "unfilled.csv").read_text()
    assert "P,OBC,1," in (out / "unfilled.csv").read_text()


@pytest.mark.parametrize("cell", ["true", "yes", "1", "Y"])
def test_a_true_exempt_cell_names_no_ground_and_is_refused(tmp_path, cell):
    r, out = solve(tmp_path, cell)
    assert r.exit_code == 2
    assert "v.csv, line 2, column 4 (exempt)" in r.output and "names the ground" in r.output
    assert not out.exists()
