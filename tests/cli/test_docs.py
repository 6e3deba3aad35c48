"""Every command block of README.md and docs/ runs as written, in order, one folder per page (a page's blocks
share it, as a reader's shell would), and fails on any non-zero exit. The inputs come from `aarakshan demo`
(solver.runs.examples), so no block needs a file the repository does not make.

Two blocks are the set-up itself: the README's install-and-demo line runs here without its install (this test
runs inside that installation), and its install-and-test line is what `.ci/run` runs (checked below), which is
this very run."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```", re.S | re.M)
INSTALL = re.compile(r"^python3 -m venv \.venv && \. \.venv/bin/activate && pip install -e \S+ && ")


def blocks(page: Path) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]


def test_the_readme_test_command_is_what_ci_runs():
    run = (ROOT / ".ci" / "run").read_text()
    tests = [code for kind, code in blocks(ROOT / "README.md") if "pytest" in code and INSTALL.match(code)]
    assert len(tests) == 1 and tests[0].strip() in run


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_command_block_runs(page, tmp_path):
    found = blocks(page)
    assert found or page.name != "README.md"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "COLUMNS": "120", "PYTHONHASHSEED": "0"}
    for k, (kind, code) in enumerate(found, 1):
        if kind == "bash" and INSTALL.match(code):
            code = INSTALL.sub("", code)
            if code.strip() == "pytest":
                continue    # the run this test is part of (test_the_readme_test_command_is_what_ci_runs)
        if kind == "python":
            (tmp_path / f"block{k}.py").write_text(code)
            cmd = [sys.executable, f"block{k}.py"]
        else:
            cmd = ["bash", "-euo", "pipefail", "-c", code]
        res = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
        assert res.returncode == 0, f"{page.name}, block {k} ({kind}), exit {res.returncode}:\n{code}\n" \
                                    f"--- stdout\n{res.stdout[-3000:]}\n--- stderr\n{res.stderr[-3000:]}"


def test_each_act_s_page_is_its_model_as_it_stands():
    """docs/acts/NAME.md is made from models/NAME.toml (`python -m solver.policy.describe docs/acts`): a model
    changed without its page fails here."""
    from solver.policy import load_policy
    from solver.policy.describe import describe
    from solver.policy.load import bundled_models
    for stem in bundled_models():
        page = ROOT / "docs" / "acts" / f"{stem}.md"
        assert page.read_text(encoding="utf-8") == describe(load_policy(stem), stem), \
            f"{page} is out of date: python -m solver.policy.describe docs/acts"


def test_the_open_questions_page_is_the_models_as_they_stand():
    """docs/questions.md lists every open question a bundled model declares, each side's authority and each
    model's answer, made from the models: a question added, or a default changed, without the page fails here."""
    from solver.policy import load_policy
    from solver.policy.describe import questions
    from solver.policy.load import bundled_models
    models = {stem: load_policy(stem) for stem in bundled_models()}
    page = (ROOT / "docs" / "questions.md").read_text(encoding="utf-8")
    assert page == questions(models), "docs/questions.md is out of date: python -m solver.policy.describe docs/acts"
    assert all(f"`{q.key}`" in page for p in models.values() for q in p.open_questions)


def test_every_link_between_pages_leads_somewhere():
    """Each relative link of README.md and docs/ names a file of the repository (anchors aside)."""
    broken = []
    for page in [*PAGES, *sorted((ROOT / "docs" / "acts").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken
