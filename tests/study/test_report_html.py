"""report.html opened in a real headless browser: the charts render (plotly's SVG is in the
DOM) and a screenshot is not blank. Debian's chromium; .ci/run installs it when missing."""
from __future__ import annotations

import shutil
import struct
import subprocess
import zlib

import pytest
from conftest import write_csv
from typer.testing import CliRunner

from solver.cli import app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (.ci/run installs it)")


def _browser(page, *args):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--virtual-time-budget=10000", *args, page.as_uri()],
                          capture_output=True, text=True, timeout=120)


def _colours(png: bytes) -> int:
    """Distinct byte values in the image's pixel rows (a blank page has one or two)."""
    pos, data = 8, b""
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + size]
        pos += 12 + size
    return len(set(zlib.decompress(data)))


def _rendered(page, tmp_path, charts, shows=()):
    """The page as headless chromium renders it: at least `charts` charts drawn, a screenshot that is not blank,
    and each of `shows` (a heading, a table's text) in the rendered document."""
    dom = _browser(page, "--dump-dom").stdout
    assert dom.count('class="main-svg"') >= charts, dom[-2000:]
    for text in shows:
        assert text in dom, text
    shot = tmp_path / "shot.png"
    _browser(page, f"--screenshot={shot}", "--window-size=1200,1600")
    assert _colours(shot.read_bytes()) > 20


def test_solve_compare_and_sweep_reports_render(tmp_path):
    from solver import load_policy
    from solver.data.instances import generate, write_instance
    d = write_instance(tmp_path / "in", *generate(load_policy("central-dopt"), n=400, vacancies=60, posts=3,
                                                  seed=3, women_share=0.3))
    files = ["--candidates", str(d / "candidates.csv"), "--vacancies", str(d / "vacancies.csv")]
    for name, sets in (("a", []), ("b", ["--set", "migration.relaxed_may_take_open=true"])):
        r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", *files, "--out", str(tmp_path / name),
                                     "--engine", "greedy", "--quiet", "--report", *sets])
        assert r.exit_code == 0, r.output
    _rendered(tmp_path / "a" / "report.html", tmp_path, 4)   # cutoffs, own category, fill, horizontal
    r = CliRunner().invoke(app, ["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--candidates",
                                 str(d / "candidates.csv"), "--out", str(tmp_path / "cmp")])
    assert r.exit_code == 0, r.output
    _rendered(tmp_path / "cmp" / "report.html", tmp_path, 3,
              ("Winners and losers, by own category and horizontal trait", "migration.relaxed_may_take_open=true",
               "the policy as given", "net posts"))
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *files, "--grid",
                                 "migration.relaxed_may_take_open=true,false", "--out", str(tmp_path / "sw"),
                                 "--baseline", "migration.relaxed_may_take_open=false"])
    assert r.exit_code == 0, r.output
    _rendered(tmp_path / "sw" / "report.html", tmp_path, 3,
              ("the difference from migration.relaxed_may_take_open=false", "The figures of that chart",
               "Winners and losers, migration.relaxed_may_take_open=false to", "baseline"))
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", *files, "--stack", "ceiling.share=0.6",
                                 "--stack", "categories.OBC.share=0.19", "--out", str(tmp_path / "st")])
    assert r.exit_code == 0, r.output
    _rendered(tmp_path / "st" / "report.html", tmp_path, 2, ("each override's contribution", "+ceiling.share=0.6"))


def test_the_report_is_the_same_bytes_for_the_same_input(tmp_path):
    """Numbered chart ids, no timestamps: two runs write the same report.html."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "UR"], ["B", 2, "OBC"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "OBC", 1]])
    pages = []
    for name in ("o1", "o2"):
        r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                     "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / name),
                                     "--quiet", "--report"])
        assert r.exit_code == 0, r.output
        pages.append((tmp_path / name / "report.html").read_bytes())
    assert pages[0] == pages[1]
