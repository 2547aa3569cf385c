"""Jinja2 environments over the templates shipped in the package: HTML (autoescaped) and
LaTeX (``((* *))`` / ``((( )))`` delimiters so TeX's braces stay literal, and a filter that
escapes text for TeX)."""

from __future__ import annotations

from functools import cache

import jinja2

from problemtools_py.resources import template_text
from problemtools_py.statements.texescape import tex_escape


@cache
def html_env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(template_text),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )


@cache
def latex_env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(template_text),
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
