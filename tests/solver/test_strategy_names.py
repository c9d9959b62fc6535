"""The solver's King Albert strategy names its piles with king_albert.py's constants, never bare numbers.

A pile number written as a literal (``p[4:13]``, ``dst < 4``) silently goes wrong
the day the layout changes; the named constants change with it.
"""

from __future__ import annotations

import ast
import inspect

from tableaux.solver.strategy import KingAlbertStrategy

PILE_VARIABLES = {"src", "dst", "i", "f", "t", "pile"}


def literal_int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def test_king_albert_strategy_uses_no_literal_pile_numbers() -> None:
    tree = ast.parse(inspect.getsource(KingAlbertStrategy))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Slice) and any(literal_int(b) for b in (node.lower, node.upper) if b is not None):
            found.append(ast.unparse(node))
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Name) and s.id in PILE_VARIABLES for s in sides) and any(map(literal_int, sides)):
                found.append(ast.unparse(node))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            if node.args and all(map(literal_int, node.args)):
                found.append(ast.unparse(node))
    assert not found, f"pile numbers written as literals: {found}"
