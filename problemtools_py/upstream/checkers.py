"""Which testlib checkers the dataset's comparator reproduces (the card keeps a
Code-Contests-Plus row "only where a stock testlib checker equals the comparator").

A checker is recognised as one of testlib's stock checkers (MikeMirzayanov/testlib,
``checkers/``, read at 1e4e8a2) by the name it gives itself (``setName(...)``, each stock
checker's own words), by its size (the stock ones are a few hundred bytes; a long source
naming itself so is someone's own) and, for the checkers of doubles, by its tolerance. The
comparator (judge/dataset_rule.py) compares tokens, YES/NO in any case, and numbers
within 1e-6; so it reproduces: ``wcmp`` (tokens), ``ncmp`` (integers), ``icmp`` (one
integer), ``hcmp`` (huge integers), ``rcmp6`` (doubles, 1e-6 absolute or relative),
``yesno`` and ``nyesno`` (YES/NO in any case). Not: ``lcmp`` and ``fcmp`` (lines matter),
``uncmp`` (any order), ``rcmp4``/``rcmp9``/``acmp``/``dcmp``/``rcmp``/``rncmp`` (another
tolerance), the ``case*`` checkers (per-case parsing), and every checker of a problem's
own. Where the comparator and such a stock checker could still differ (the comparator
takes ``1.0`` for an expected integer ``1``), it is the more lenient."""

from __future__ import annotations

import re

MAX_STOCK_BYTES = 4096
_NAME = re.compile(r"setName\s*\((.*?)\)\s*;", re.S)
_EPS = re.compile(r"EPS\s*=\s*([0-9.eE+-]+)")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
REPRODUCED = {
    '"comparesequencesoftokens"': "wcmp",
    '"compareorderedsequencesofsignedint%dnumbers",8*int(sizeof(longlong))': "ncmp",
    '"comparetwosignedint%d\'s",8*int(sizeof(int))': "icmp",
    '"comparetwosignedhugeintegers"': "hcmp",
    '"%s",(YES+"or"+NO+"(caseinsensitive)").c_str()': "yesno",
    '"%s",("multiple"+YES+"/"+NO+"(caseinsensitive)").c_str()': "nyesno",
}
DOUBLES = '"comparetwosequencesofdoubles,maxabsoluteorrelativeerror=%.7f",EPS'


def reproduced(checker: str) -> str | None:
    """The stock checker ``checker`` is, when the comparator reproduces it; else None."""
    if len(checker.encode()) > MAX_STOCK_BYTES or "registerTestlibCmd" not in checker:
        return None
    source = _COMMENT.sub("", checker)
    named = _NAME.search(source)
    if named is None:
        return None
    name = "".join(named.group(1).split())
    if name in REPRODUCED:
        return REPRODUCED[name]
    eps = _EPS.search(source)
    if name == DOUBLES and eps is not None and float(eps.group(1)) == 1e-6:
        return "rcmp6"
    return None
