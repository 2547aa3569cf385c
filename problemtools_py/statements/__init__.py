"""Statements rendered for contestants: HTML (LaTeX through plasTeX's parser, Markdown
through markdown-it) and PDF (our LaTeX class, compiled by the real ``pdflatex``)."""
