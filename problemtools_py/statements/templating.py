"""Jinja2 environments over the templates shipped in the package: HTML (autoescaped) and
LaTeX (``((* *))`` / ``((( )))`` delimiters so TeX's braces stay literal, and a filter that
escapes text for TeX)."""

from __future__ import annotations

from functools import cache

import jinja2

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.resources import template_dir
from problemtools_py.statements.texescape import tex_escape


def _load(name: str) -> str:
    try:
        return (template_dir() / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise FatalError(
            f"installation is broken: cannot read template {name}: {exc}",
            exit_code=ExitCode.INTERNAL,
        ) from exc


@cache
def html_env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(_load), autoescape=True, undefined=jinja2.StrictUndefined
    )


@cache
def latex_env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load),
        block_start_string="((*",
        block_end_string="*))",
        variable_start_string="(((",
        variable_end_string=")))",
        comment_start_string="((=",
        comment_end_string="=))",
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["tex"] = tex_escape
    return env
