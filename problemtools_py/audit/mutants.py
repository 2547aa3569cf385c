"""Mutants of a Python program (auditdata's wrong programs): each one small change of
its syntax tree, by well-defined operators:

- ``compare``: ``<`` and ``<=``, ``>`` and ``>=`` swapped (off by one), ``==`` and ``!=``;
- ``arith``: ``+`` and ``-`` swapped, ``*`` to ``+``, ``//`` to ``%`` (``+=`` too);
- ``constant``: an integer constant one larger (``0`` and ``1`` included);
- ``range``: a ``range(...)`` bound one smaller, or halved;
- ``branch``: an ``if`` whose body never runs (its test ``False``);
- ``builtin``: ``min`` and ``max``, ``sum`` to ``max``, ``any`` and ``all`` swapped;
- ``negation``: ``-x`` made ``+x``.

Sites are numbered in the tree's order, so a mutant is named by its operator and site
(and line) and made again the same. The program's text is unparsed from the tree
(comments and layout go; what it does stays)."""

from __future__ import annotations

import ast
import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

SWAP_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
}  # fmt: skip
SWAP_BUILTIN = {"min": "max", "max": "min", "sum": "max", "any": "all", "all": "any"}
SWAP_ARITH: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mod,
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    """One mutant: its name (operator, site, line), what changed, and its program."""

    name: str
    operator: str
    line: int
    change: str
    code: str


Site = tuple[str, int, str, Callable[[ast.AST], None]]  # operator, line, change, apply


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, Site]]:
    """Every place a mutation applies, in the tree's order (ast.walk's, which is fixed)."""
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                swapped = SWAP_COMPARE.get(type(op))
                if swapped is not None:
                    yield (
                        node,
                        (
                            "compare",
                            line,
                            f"{_op(op)} -> {_op(swapped())}",
                            _set_compare(index, swapped),
                        ),
                    )
        elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in SWAP_ARITH:
            new = SWAP_ARITH[type(node.op)]
            yield node, ("arith", line, f"{_op(node.op)} -> {_op(new())}", _set_arith(new))
        elif isinstance(node, ast.Constant) and isinstance(value := node.value, int):
            if isinstance(value, bool) or abs(value) >= 10**18:
                continue
            yield node, ("constant", line, f"{value} -> {value + 1}", _plus_one)
        elif _range_call(node):
            yield node, ("range", line, "bound - 1", _range_bound(lambda e: _minus(e, 1)))
            yield node, ("range", line, "bound // 2", _range_bound(_halved))
        elif isinstance(node, ast.If):
            yield node, ("branch", line, "if body never runs", _never)
        elif _builtin_call(node):
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            other = SWAP_BUILTIN[node.func.id]
            yield node, ("builtin", line, f"{node.func.id} -> {other}", _set_builtin(other))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            yield node, ("negation", line, "-x -> +x", _unary_plus)


def _op(op: ast.AST) -> str:
    names = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
             ast.NotEq: "!=", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//",
             ast.Mod: "%"}  # fmt: skip
    return names.get(type(op), type(op).__name__)


def _range_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and 1 <= len(node.args) <= 2
    )


def _set_compare(index: int, new: type[ast.cmpop]) -> Callable[[ast.AST], None]:
    def apply(node: ast.AST) -> None:
        assert isinstance(node, ast.Compare)
        node.ops[index] = new()

    return apply


def _set_arith(new: type[ast.operator]) -> Callable[[ast.AST], None]:
    def apply(node: ast.AST) -> None:
        assert isinstance(node, ast.BinOp | ast.AugAssign)
        node.op = new()

    return apply


def _plus_one(node: ast.AST) -> None:
    assert isinstance(node, ast.Constant) and isinstance(node.value, int)
    node.value = node.value + 1


def _minus(expr: ast.expr, amount: int) -> ast.expr:
    return ast.BinOp(expr, ast.Sub(), ast.Constant(amount))


def _halved(expr: ast.expr) -> ast.expr:
    return ast.BinOp(expr, ast.FloorDiv(), ast.Constant(2))


def _range_bound(change: Callable[[ast.expr], ast.expr]) -> Callable[[ast.AST], None]:
    def apply(node: ast.AST) -> None:
        assert isinstance(node, ast.Call)
        at = 0 if len(node.args) == 1 else 1
        node.args[at] = change(node.args[at])

    return apply


def _builtin_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in SWAP_BUILTIN
    )


def _set_builtin(name: str) -> Callable[[ast.AST], None]:
    def apply(node: ast.AST) -> None:
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        node.func.id = name

    return apply


def _unary_plus(node: ast.AST) -> None:
    assert isinstance(node, ast.UnaryOp)
    node.op = ast.UAdd()


def _never(node: ast.AST) -> None:
    assert isinstance(node, ast.If)
    node.test = ast.Constant(False)


def mutants(code: str, limit: int, seed: int = 0) -> list[Mutant]:
    """At most ``limit`` mutants of ``code`` (every site when there are no more; else a
    sample, the same for the same seed), in site order; none when it does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    sites = [site for _, site in _sites(tree)]
    chosen = list(range(len(sites)))
    if len(chosen) > limit:
        chosen = sorted(random.Random(seed).sample(chosen, limit))
    found = []
    for index in chosen:
        copied = copy.deepcopy(tree)
        node, (operator, line, change, apply) = list(_sites(copied))[index]
        apply(node)
        ast.fix_missing_locations(copied)
        try:
            text = ast.unparse(copied) + "\n"
        except (ValueError, RecursionError):
            continue
        found.append(Mutant(f"{operator}@{index}:L{line}", operator, line, change, text))
    return found
