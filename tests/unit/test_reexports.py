"""One home per name: a module outside `__init__.py` never imports a name only to expose it.

A name is imported from the module that defines it. A module that imports a name (to use it) is not a
second address for it: no `import x as x` alias, no `__all__` entry, and no other module importing
that name from it. A package's `__init__.py` is its public face and may gather names; nothing else may
(docs/architecture.md, "Layers").
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Every folder of Python the repository holds, the tests included (their fixtures are shared through
#: conftest.py files and pytest_plugins, never imported into a module to expose them).
FOLDERS = (
    *("app", "ui", "batch", "executor", "planner", "browser", "receipts", "voice", "common", "evals"),
    *("benchmarks", "tests", "docs", "scripts"),
)


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of ours."""
    found: dict[str, Path] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path
    return found


def defined_names(tree: ast.Module) -> set[str]:
    """Names a module binds other than by importing them: defs, classes and assignments."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def exported_names(tree: ast.Module) -> set[str]:
    """The strings of a module-level `__all__`."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return {
                e.value
                for e in ast.walk(node.value)
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    return set()


def exposed_here(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Names a module marks for export although it imported them: `x as x` aliases, `__all__` entries."""
    exported = exported_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and getattr(node, "module", "") != "__future__":
            for alias in node.names:
                if alias.asname is not None and alias.asname == alias.name.rsplit(".", 1)[-1]:
                    yield node.lineno, f"`{alias.name} as {alias.asname}` re-exports it"
                elif (alias.asname or alias.name.split(".")[0]) in exported:
                    yield node.lineno, f"`{alias.asname or alias.name}` is imported and listed in __all__"


def taken_through(
    tree: ast.Module, modules: dict[str, Path], defined: dict[str, set[str]]
) -> Iterator[tuple[int, str]]:
    """Names a module imports from one of ours that does not define them (a package's face aside)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or node.module not in modules:
            continue
        source = node.module
        if modules[source].name == "__init__.py":
            continue
        for alias in node.names:
            if alias.name == "*":
                yield node.lineno, f"`from {source} import *` takes whatever it imported"
            elif alias.name not in defined[source] and f"{source}.{alias.name}" not in modules:
                yield node.lineno, f"`{alias.name}` comes from {source}, which only imports it"


def reexports(modules: dict[str, Path], root: Path = ROOT) -> Iterator[str]:
    """Each way a module outside `__init__.py` exposes a name it imported, as `file:line: what`."""
    trees = {
        name: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name, path in modules.items()
    }
    defined = {name: defined_names(tree) for name, tree in trees.items()}
    for name, tree in trees.items():
        path = modules[name]
        own = [] if path.name == "__init__.py" else list(exposed_here(tree))
        for line, what in own + list(taken_through(tree, modules, defined)):
            yield f"{path.relative_to(root)}:{line}: {what}"


def test_no_module_outside_init_reexports_a_name() -> None:
    found = list(reexports(module_files()))
    assert not found, "import each name from the module that defines it:\n" + "\n".join(found)


def test_the_check_sees_a_shim(tmp_path: Path) -> None:
    """The three shapes of a shim are each reported, and a package's __init__ is left alone."""
    (tmp_path / "home.py").write_text("def thing() -> None: ...\n")
    (tmp_path / "shim.py").write_text("from home import thing as thing\n")
    (tmp_path / "listed.py").write_text("from home import thing\n__all__ = ['thing']\n")
    (tmp_path / "user.py").write_text("from listed import thing\n")
    (tmp_path / "__init__.py").write_text("from home import thing as thing\n")
    modules = {p.stem: p for p in tmp_path.glob("*.py")}
    found = sorted(reexports(modules, tmp_path))
    assert [f.split(":")[0] for f in found] == ["listed.py", "shim.py", "user.py"]


def conftest_breaches(modules: dict[str, Path], root: Path = ROOT) -> Iterator[str]:
    """A conftest.py holds fixtures and hooks only, and no module imports from one: helpers live in
    tests/support/ (tests/README.md, "Fixtures and helpers")."""
    for path in modules.values():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(root)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("conftest"):
                yield f"{where}:{node.lineno}: imports from {node.module}"
        if path.name != "conftest.py":
            continue
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            fixture = any("fixture" in ast.unparse(d) for d in node.decorator_list)
            if not (fixture or node.name.startswith(("pytest_", "_"))):
                yield f"{where}:{node.lineno}: `{node.name}` is a helper: move it to tests/support/"


def test_conftest_files_hold_fixtures_and_no_module_imports_them() -> None:
    found = list(conftest_breaches(module_files()))
    assert not found, "\n".join(found)
