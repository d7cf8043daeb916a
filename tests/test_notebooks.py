"""The tab notebooks show every result as something a student can read without the code.

Voilà strips the code cells and the documentation site shows the executed notebooks, so a bare
``array([[0.75, 0.25], ...])``, list, tuple or number printed by a cell is an unexplained number there.
Every output must be a labelled table (HTML), a sentence (Markdown) or a widget; nothing is printed.
Each tab notebook is executed here top to bottom (a cell that raises fails its test), so this is also its
run as a notebook: tests/conftest.py leaves out nbmake's second run of it when this test is selected.
"""

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
TAB_NOTEBOOKS = sorted(NOTEBOOKS.glob("0*.ipynb"))

#: The MIME types a reader sees as labelled: an HTML table, a Markdown sentence, a widget.
READABLE = ("text/html", "text/markdown", "application/vnd.jupyter.widget-view+json")
#: The papers' file codes ("paper 003"), which readers cannot map to a paper (cite authors and year).
PAPER_CODE = re.compile(r"(?<![\d.,/_-])00[0-4](?![\d_])")


def unreadable_outputs(notebook) -> list[str]:
    """Where an executed notebook shows a bare repr, printed text or a paper file code (empty when none)."""
    problems = []
    for number, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            kind = output["output_type"]
            where = f"cell {number}"
            if kind == "stream":
                problems.append(f"{where} prints to {output['name']}: {output['text'][:80]!r}")
            elif kind == "error":
                problems.append(f"{where} raises {output['ename']}")
            elif kind in ("execute_result", "display_data"):
                data = output.get("data", {})
                if not any(mime in data for mime in READABLE):
                    problems.append(f"{where} shows a bare repr: {str(data.get('text/plain', data))[:80]!r}")
                codes = PAPER_CODE.findall(str(data.get("text/markdown", "")))
                if codes:
                    problems.append(f"{where} cites a paper by file code {codes[0]!r}")
    return problems


def _output(kind: str, **fields) -> dict:
    return nbformat.from_dict({"output_type": kind, **fields})


def test_the_check_finds_bare_reprs_prints_and_file_codes():
    bare = [_output("execute_result", data={"text/plain": "array([[0.75, 0.25],\n       [0.25, 0.75]])"},
                    metadata={}, execution_count=1),
            _output("display_data", data={"text/plain": "(32561, 15)"}, metadata={}),
            _output("stream", name="stdout", text="[0.722, 0.844, 0.776]\n"),
            _output("display_data", data={"text/markdown": "see paper 003", "text/plain": "<Markdown>"}, metadata={})]
    fine = [_output("execute_result", data={"text/html": "<table></table>", "text/plain": "   a\n0  1"},
                    metadata={}, execution_count=2),
            _output("display_data", data={"text/markdown": "ε = **2** (Ruiz (2018)), 1,000 records"}, metadata={}),
            _output("display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                                          "text/plain": "VBox()"}, metadata={})]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=bare),
                                               nbformat.v4.new_code_cell(outputs=fine)])
    problems = unreadable_outputs(notebook)
    assert len(problems) == len(bare) and all(p.startswith("cell 0 ") for p in problems), problems


@pytest.mark.slow
@pytest.mark.parametrize("path", TAB_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_output_of_a_tab_notebook_is_labelled(path):
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [o for cell in notebook.cells for o in cell.get("outputs", [])]
    assert outputs, f"{path.name} shows nothing"
    assert unreadable_outputs(notebook) == [], path.name


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")) + sorted((NOTEBOOKS / "lessons").glob("*.ipynb")),
                         ids=lambda path: path.name)
def test_every_notebook_gives_its_page_a_title(path):
    """Voilà and nbconvert make a notebook's ``metadata.title`` the page's <title> (WCAG 2.4.2), else its file
    name ("app"): the app's is "Privacy explorer", every other's its first heading."""
    notebook = nbformat.read(path, as_version=4)
    markdown = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    expected = "Privacy explorer" if path.name == "app.ipynb" else markdown[0].splitlines()[0].removeprefix("# ")
    assert notebook.metadata.get("title") == expected
