"""Input validators on every test input, on junk and mutated inputs (which some validator
should reject), and on 2023-07 data/invalid_input (which some validator must reject)."""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Collection, Iterator
from pathlib import Path

from problemtools_py.findings import Finding, error, warning
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.held import HeldJails, worth_fresh_init
from problemtools_py.judging.validators import InputVerdict, run_validator, validators
from problemtools_py.model.problem import Program, TestCase
from problemtools_py.model.testdata import ALL_KINDS, VALIDATION_KINDS, GroupKind
from problemtools_py.scratch import readable_files, scratch_root
from problemtools_py.verify.context import Context
from problemtools_py.workbench.cache import VerdictCache, Verdicts

ACCEPTED_INPUTS = ALL_KINDS - VALIDATION_KINDS  # (inputs every input validator accepts)


def _cases(ctx: Context, kinds: Collection[GroupKind]) -> list[TestCase]:
    """The cases of ``kinds`` with an input."""
    return ctx.cases(kinds, (".in",))


def check_inputs(ctx: Context) -> list[Finding]:
    built, findings = validators(ctx)
    if not built:
        return findings
    cache = VerdictCache()
    root = ctx.problem.root
    inputs = [(case, root / case.files[".in"]) for case in _cases(ctx, ACCEPTED_INPUTS)]
    runs = (len(inputs) + 8) * len(built) / max(1, ctx.options.jobs)  # (8 junk inputs)
    with HeldJails(ctx.pool, ctx.validation_limits, worth_fresh_init(runs)) as jails:  # per thread
        verdicts = _verdicts(ctx, built, inputs, cache, jails)
        more = [*_invalid_inputs(ctx, built, cache, jails), *_fuzz(ctx, built, cache, jails)]
    which = [(program, case) for case, _path in inputs for program, _exe in built]
    for (program, case), verdict in zip(which, verdicts, strict=True):
        if not verdict.valid:
            findings.append(
                error(
                    "input-validator",
                    f"input validator {program.name} rejects this input: {verdict.message}",
                    case.files[".in"],
                )
            )
    return findings + more  # (the data's own first, as before the runs went jobs at a time)


def _verdicts(
    ctx: Context,
    built: list[tuple[Program, Executable]],
    inputs: list[tuple[TestCase, Path]],
    cache: Verdicts,
    jails: HeldJails,
) -> list[InputVerdict]:
    """Each validator on each input (a case, for its validator arguments, and the file),
    input by input, validator by validator; all the runs at once, ``jobs`` at a time."""
    tasks = [(case, path, program, exe) for case, path in inputs for program, exe in built]

    def verdict(task: tuple[TestCase, Path, Program, Executable]) -> InputVerdict:
        case, path, program, exe = task
        args = ctx.problem.input_validator_args(case, program.name)
        with jails.take(exe) as held:
            return run_validator(ctx, exe, args, path, cache, held=held)

    return ctx.map(verdict, tasks)


def _all_accept(
    ctx: Context,
    built: list[tuple[Program, Executable]],
    inputs: list[tuple[TestCase, Path]],
    cache: Verdicts,
    jails: HeldJails,
) -> list[bool]:
    """Per input: whether every validator accepts it."""
    verdicts = _verdicts(ctx, built, inputs, cache, jails)
    per = len(built)
    return [all(v.valid for v in verdicts[i * per : (i + 1) * per]) for i in range(len(inputs))]


def _invalid_inputs(
    ctx: Context, built: list[tuple[Program, Executable]], cache: Verdicts, jails: HeldJails
) -> Iterator[Finding]:
    root = ctx.problem.root
    cases = _cases(ctx, {GroupKind.INVALID_INPUT})
    accepted = _all_accept(ctx, built, [(c, root / c.files[".in"]) for c in cases], cache, jails)
    for case, all_accept in zip(cases, accepted, strict=True):
        if all_accept:
            yield error(
                "input-validator",
                "every input validator accepts this input from "
                "data/invalid_input, which must be rejected",
                case.files[".in"],
            )


def junk_inputs(sample: bytes) -> list[tuple[str, bytes]]:
    """Inputs no validator should accept: junk, and small corruptions of a real input."""
    rng = random.Random(20230701)
    printable = bytes(rng.randrange(32, 127) for _ in range(200)) + b"\n"
    junk = [
        ("an empty input", b""),
        ("1024 random bytes", bytes(rng.randrange(256) for _ in range(1024))),
        ("200 random printable characters", printable),
    ]
    if not sample:
        return junk
    mutations = [
        (
            "the input with an extra space after the first whitespace",
            re.sub(rb"(\s)", rb"\1 ", sample, count=1),
        ),
        ("the input with a trailing space", sample.rstrip(b"\n") + b" \n"),
        ("the input with a doubled newline", sample.replace(b"\n", b"\n\n", 1)),
        (
            "the input with leading zeros on its first integer",
            re.sub(rb"(?<![\d.])(\d+)", rb"0000000000\1", sample, count=1),
        ),
        ("the input with trailing garbage", sample + printable),
    ]
    return junk + [(what, data) for what, data in mutations if data != sample]


def _fuzz(
    ctx: Context, built: list[tuple[Program, Executable]], cache: Verdicts, jails: HeldJails
) -> Iterator[Finding]:
    first = next((c for c in _cases(ctx, ACCEPTED_INPUTS) if c.name.startswith("secret/")), None)
    if first is None:
        return
    sample = (ctx.problem.root / first.files[".in"]).read_bytes()
    junk = junk_inputs(sample)
    with tempfile.TemporaryDirectory(prefix="ptpy-fuzz-", dir=scratch_root()) as tmp:
        written = readable_files(tmp, [data for _, data in junk], "junk", ".in")
        paths = [(first, path) for path in written]
        accepted = _all_accept(ctx, built, paths, cache, jails)
    where = ctx.problem.input_validators[0].rel if ctx.problem.input_validators else None
    for (what, _data), all_accept in zip(junk, accepted, strict=True):
        if all_accept:
            yield warning(
                "input-validator",
                f"no input validator rejects {what}",
                where or "input_validators",
            )
