"""Benchmark instances and runner: `python -m benchmarks --help`."""
from __future__ import annotations

import subprocess
from pathlib import Path


def code_version() -> str:
    """The commit the figures came from, with '+dirty' when the tree had uncommitted changes."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def record(name: str, rows: list[dict], **meta) -> None:
    """Append `rows` (with the date, the commit and `meta`) to benchmarks/results/NAME.jsonl when
    AARAKSHAN_RECORD=1, the figures to commit with benchmarks/README.md; otherwise say where they would go, so
    that a look at the figures leaves the tracked result files as they were."""
    import json
    import os
    import time
    path = Path(__file__).resolve().parent / "results" / f"{name}.jsonl"
    if os.environ.get("AARAKSHAN_RECORD") != "1":
        print(f"(not recorded: AARAKSHAN_RECORD=1 appends these rows to {path})")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fh.writelines(json.dumps({"when": time.strftime("%Y-%m-%d"), "commit": code_version(), **meta, **r}) + "\n"
                      for r in rows)
