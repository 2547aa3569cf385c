"""Statements rendered for contestants: HTML (LaTeX through plasTeX's parser, Markdown
through markdown-it) and PDF (our LaTeX class, compiled by the real ``pdflatex``)."""

from __future__ import annotations

from problemtools_py.statements.source import Sample, StatementSource, load_source

__all__ = ["Sample", "StatementSource", "load_source"]
