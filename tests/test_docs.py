"""The README and docs/ stay true: their Python examples run, their links and module names exist, the keys
they list are the page's keys, and a newcomer finds the two commands on the README's first screen.

Why a test: docs rot silently when code moves (a module renamed, a key rebound, a make target dropped); here
such a change fails until the docs follow it.
"""
from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
#: how many lines of the README a newcomer sees without scrolling (a laptop terminal or a browser window)
FIRST_SCREEN = 25


def _blocks(path: Path, language: str) -> list[tuple[int, str]]:
    """(line, text) of every fenced code block of ``language`` in a Markdown file."""
    out, current, start = [], None, 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if current is None and line.strip() == f"```{language}":
            current, start = [], number
        elif current is not None and line.strip() == "```":
            out.append((start, "\n".join(current) + "\n"))
            current = None
        elif current is not None:
            current.append(line)
    return out


def test_the_two_commands_are_on_the_first_screen():
    first = "\n".join((REPO / "README.md").read_text(encoding="utf-8").splitlines()[:FIRST_SCREEN])
    assert re.search(r"^make run\b", first, re.MULTILINE) and re.search(r"^make test\b", first, re.MULTILINE)
    assert "docs/img/annotate.png" in (REPO / "README.md").read_text(encoding="utf-8")
    assert (REPO / "docs" / "img" / "annotate.png").stat().st_size > 10_000


def _example_files() -> list[Path]:
    return [path for path in DOCS if _blocks(path, "pycon")]


def test_the_docs_have_python_examples():
    assert REPO / "docs" / "library.md" in _example_files()


@pytest.mark.parametrize("path", _example_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_python_examples_run(path):
    """The ``pycon`` blocks of one file run in order in one namespace, as a reader would type them."""
    namespace: dict = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, text in _blocks(path, "pycon"):
        test = doctest.DocTestParser().get_doctest(text, namespace, f"{path.name}:{line}", str(path), line)
        test.globs = namespace  # get_doctest copies the namespace: share it so a block sees the ones before
        runner.run(test, clear_globs=False)
    assert runner.failures == 0, f"{path.name}: an example's output differs (see the report above)"


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_relative_links_and_anchors_exist():
    wrong = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            if not linked.exists():
                wrong.append(f"{path.name}: {target}")
            elif anchor and linked.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.MULTILINE)
                if anchor not in {_slug(h) for h in headings}:
                    wrong.append(f"{path.name}: {target} (no such heading)")
    assert wrong == []


def _defines(module: Path, name: str) -> bool:
    source = module.read_text(encoding="utf-8")
    return re.search(rf"^\s*(?:def|class|async def)\s+{name}\b|^{name}\s*[:=]|\bimport\b.*\b{name}\b",
                     source, re.MULTILINE) is not None


def _resolves(dotted: str) -> bool:
    """A module of the repository, or a module and one name it defines."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = REPO.joinpath(*parts[:cut])
        module = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if module.is_file():
            rest = parts[cut:]
            return not rest or (len(rest) == 1 and _defines(module, rest[0]))
    return False


def test_module_names_in_the_docs_exist():
    """Every ```psan.…``` name is a module of the repository, a name a module defines or a Celery task's name."""
    tasks = "".join(p.read_text(encoding="utf-8") for p in (REPO / "psan" / "celery").glob("*.py"))
    wrong = []
    for path in DOCS:
        for dotted in set(re.findall(r"`((?:psan|ner_eval)(?:\.\w+)+)", path.read_text(encoding="utf-8"))):
            if not _resolves(dotted) and f'"{dotted}"' not in tasks:
                wrong.append(f"{path.name}: {dotted}")
    assert wrong == []


def test_make_targets_in_the_docs_exist():
    targets = set(re.findall(r"^([a-z][\w-]*):", (REPO / "Makefile").read_text(encoding="utf-8"), re.MULTILINE))
    named = set()
    for path in DOCS:
        named |= set(re.findall(r"`make ([a-z][\w-]*)", path.read_text(encoding="utf-8")))
        for _, block in _blocks(path, "sh"):
            named |= set(re.findall(r"^make ([a-z][\w-]*)", block, re.MULTILINE))
    assert named and named <= targets, named - targets


def test_the_annotators_guide_lists_every_key_of_the_pages():
    guide = (REPO / "docs" / "annotators.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([^`\s]{1,6})`", guide))
    annotate = (REPO / "psan" / "static" / "annotate.js").read_text(encoding="utf-8")
    keys = re.search(r"var keys = \{(.*?)\n  \};", annotate, re.DOTALL).group(1)
    page_keys = set(re.findall(r'^\s*"(.)": function', keys, re.MULTILINE)) | {"?", "Esc"}
    workspace = (REPO / "psan" / "static" / "workspace.js").read_text(encoding="utf-8")
    page_keys |= set(re.findall(r'e\.key === "(.)"', workspace)) - {" "}
    assert len(page_keys) > 25
    assert page_keys - listed == set()
