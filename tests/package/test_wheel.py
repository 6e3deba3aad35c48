"""A built wheel works outside the checkout: the policy models ship inside the
package, so `--policy NAME`, `aarakshan models` and `aarakshan demo` work from any folder."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh virtual environment with only the wheel built from this checkout (and its dependencies)."""
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    # Built from a copy without the checkout's build/ (pip builds in-tree, and a stale build/lib would put
    # modules that no longer exist into the wheel), as a fresh clone would be.
    src = work / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns("build", "dist", ".venv", ".git", "*.egg-info",
                                                             "__pycache__", "instances", ".hypothesis"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
                   check=True, cwd=work)
    wheel = next(dist.glob("aarakshan-*.whl"))
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([str(bindir / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True, cwd=work)
    return wheel, bindir


def _run(bindir, *args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(bindir / "aarakshan"), *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_wheel_carries_the_models(installed):
    import zipfile
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names if n.startswith("solver/models/")}
    assert shipped == {p.name for p in (ROOT / "models").glob("*.toml")} | \
        {p.name for p in (ROOT / "models").glob("*.csv")}   # (the caste schedules beside bihar-1991.toml)


def test_the_caste_schedules_are_read_from_the_installed_package(installed, tmp_path):
    """A caste is placed by the schedules the wheel carries, not by a file of this checkout."""
    _, bindir = installed
    (tmp_path / "c.csv").write_text("id,rank,category,caste\nU0,1,UR,\nK1,2,,Kahar\n")
    (tmp_path / "v.csv").write_text("post,category,vacancies\nX,EBC,1\nX,UR,1\n")
    r = _run(bindir, "solve", "--policy", "bihar-1991", "--candidates", "c.csv", "--vacancies", "v.csv", "--out",
             "o", "--engine", "greedy", "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "K1,X,EBC,EBC" in (tmp_path / "o" / "allocation.csv").read_text()


def test_wheel_carries_every_module(installed):
    """Every module of the package is in the wheel (pyproject's package list names each subpackage)."""
    import zipfile
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "solver").rglob("*.py")}
    assert modules - names == set()


def test_demo_runs_from_another_folder(installed, tmp_path):
    _, bindir = installed
    listed = _run(bindir, "models", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "bihar-1991,Bihar Reservation of Vacancies" in listed.stdout
    assert str(ROOT) not in listed.stderr  # found inside the installed package, not in this checkout
    version = _run(bindir, "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("aarakshan ")
    demo = _run(bindir, "demo", "--engine", "greedy", "--out", "here", cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    assert (tmp_path / "here" / "allocation.csv").stat().st_size > 1000
