"""The package's shape, checked: no import cycle among solver's modules, counting the imports inside functions
(a cycle through a function-level import is still two modules that cannot be read one without the other), and
no module much past the size one reader holds in mind, no function past 20 branches. Design: ARCHITECTURE.md, "The runs layer"."""
import ast
from pathlib import Path

SOLVER = Path(__file__).resolve().parents[2] / "solver"
MOST_LINES = 400


def _modules() -> dict[str, Path]:
    out = {}
    for p in SOLVER.rglob("*.py"):
        parts = p.relative_to(SOLVER.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def _runtime_imports(tree: ast.AST):
    """Every import statement but those under `if TYPE_CHECKING:` (types only, never run)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING":
            skip |= {id(n) for body in node.body for n in ast.walk(body)}
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in skip]


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps = set()
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                wanted = [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target for a in node.names]
            else:
                wanted = [a.name for a in node.names]
            for w in wanted:
                while w and w not in mods:
                    w = w.rpartition(".")[0]
                if w and w != name:
                    deps.add(w)
        graph[name] = deps
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_even_through_imports_inside_functions():
    graph = _graph()
    assert "solver.outcome.reasons" in graph["solver.outcome.result"], "the walk must see imports inside functions"
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_planted_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_module_past_the_size_a_reader_holds():
    long = {str(p.relative_to(SOLVER)): n for p in SOLVER.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert long == {}


MOST_BRANCHES = 20


def _complexity(source: str) -> dict[str, int]:
    """Each function's and method's cyclomatic complexity (radon's, as `radon cc -s` prints it)."""
    from radon.complexity import cc_visit
    out = {}
    for block in cc_visit(source):
        for b in [block, *getattr(block, "methods", [])]:
            out[b.fullname] = b.complexity
    return out


def test_no_function_past_twenty_branches():
    """Cyclomatic complexity at most 20 everywhere (a function past it does several things: split it by
    concern, as `castes.resolve`, once 49, was)."""
    over = {f"{p.relative_to(SOLVER)}:{name}": k for p in SOLVER.rglob("*.py")
            for name, k in _complexity(p.read_text(encoding="utf-8")).items() if k > MOST_BRANCHES}
    assert over == {}


def test_the_complexity_measure_sees_a_planted_tangle():
    tangle = "def f(x):\n" + "".join(f"    if x == {k}:\n        return {k}\n" for k in range(25)) + "    return -1\n"
    assert _complexity(tangle) == {"f": 26}


def test_library_messages_speak_of_data_not_of_flags():
    """The library names an option as its functions and policy files do (`engine=greedy`, `override KEY=VALUE`,
    `replace=True`); `solver.cli.common.flags` says it the command line's way. Strings in solver/ outside
    solver/cli/ name no flag (docstrings and comments aside; a message may name another `aarakshan` command)."""
    import ast
    import re
    flag = re.compile(r"(?<![\w`-])--[a-z][a-z-]+")
    found = []
    for path in sorted(SOLVER.rglob("*.py")):
        if "cli" in path.relative_to(SOLVER).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                text = re.sub(r"aarakshan \w+ --[a-z-]+", "", node.value)
                if flag.search(text):
                    found.append(f"{path.relative_to(SOLVER)}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "\n".join(found)


def test_solver_solve_is_the_function_whatever_was_imported_first():
    """`from solver import solve` gives the function even where the module `solver.chain.solve` was imported before
    (it gave the module, by import order)."""
    import subprocess
    import sys
    code = ("import solver.outcome.reports, solver.chain.solve\nfrom solver import solve\nimport types\n"
            "assert not isinstance(solve, types.ModuleType) and callable(solve), solve\n"
            "from solver.chain.solve import run_engine\nprint('ok')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "ok", r.stderr


LAYERS = {"policy": 0, "io": 0, "data": 0, "chain": 1, "outcome": 2, "verify": 2,
          "runs": 3, "register": 3, "exam": 3, "audit": 3, "study": 3, "cli": 4}
# The imports that run upward, each for a reason ARCHITECTURE.md ("The folders") gives.
UPWARD = {("solver.chain.reductions", "solver.exam.appointed"), ("solver.chain.reductions", "solver.exam.called"),
          ("solver.chain.reductions", "solver.outcome.result"),
          ("solver.chain.solve", "solver.outcome.result"), ("solver.data.instances", "solver.chain.vacancy.roster")}


def _upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    def layer(m):
        parts = m.split(".")
        return LAYERS.get(parts[1], -1) if len(parts) > 1 else -1
    return {(a, b) for a, deps in graph.items() for b in deps if layer(a) >= 0 and layer(b) > layer(a)}


def test_every_folder_is_a_layer_and_imports_run_downward_but_where_said():
    """solver's folders are the layers of ARCHITECTURE.md's diagram (inputs, chain, outcome, applications, command
    line); a module imports from its own layer or below, except the few imports ARCHITECTURE.md names."""
    folders = {p.name for p in SOLVER.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(LAYERS)
    assert _upward(_graph()) == UPWARD


def test_the_layer_check_sees_a_planted_upward_import():
    graph = {"solver.data.problem": {"solver.study.sweep"}, "solver.study.sweep": {"solver.data.problem"}}
    assert _upward(graph) == {("solver.data.problem", "solver.study.sweep")}
