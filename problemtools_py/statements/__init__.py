"""Statements rendered for contestants (``problem2html``, ``problem2pdf``): HTML (LaTeX
through plasTeX's parser, Markdown through markdown-it) and PDF (our LaTeX class,
compiled by the real ``pdflatex``)."""

MATHJAX_URL = "https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js"
