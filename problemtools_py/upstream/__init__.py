"""importdataset: rows of the sources the dataset card names, read as they are published,
into one form (:class:`~problemtools_py.upstream.problem.Upstream`), curated step by step
as the card does (:mod:`.curate` before any program runs, :mod:`.references` with the RL
grader), into the card's files (:mod:`problemtools_py.dataset.assemble`) and packages.

Where each layout is read from (the sources' own loading and grading code; facts only):

- DeepCoder-Preview-Dataset (agentica-org, configs ``taco``, ``primeintellect``,
  ``lcbv5``, ``codeforces``): columns ``problem``, ``solutions`` (a list of strings),
  ``tests`` (a JSON string), ``starter_code``, ``metadata`` (a JSON string), as rllm's
  ``prepare_deepcoder_data`` and its reward tests read them (``data["solutions"]``,
  ``json.loads(example["tests"])``) and NVIDIA NeMo-RL's ``deepcoder_preview.py``
  filters them (``tests[0]["testtype"] == "stdin"`` for lcbv5, ``tests[0]["type"] ==
  "stdin_stdout"`` for primeintellect); taco's tests are TACO's ``input_output``.
- TACO (BAAI/TACO, FlagOpen/TACO): ``question``, ``solutions`` (a JSON string of a list),
  ``starter_code``, ``input_output`` (a JSON string: ``inputs``, ``outputs``, and
  ``fn_name`` for a call-based problem), ``time_limit`` and ``memory_limit`` as text
  (``"2 seconds"``, ``"256 megabytes"``), ``source``, ``url``, ``name``, ``difficulty``,
  ``picture_num`` (the dataset's README lists the features).
- PrimeIntellect/verifiable-coding-problems: ``prompt`` (the problem inside the prompt
  "Solve the following coding problem using the programming language python: ..."; the
  wrapper is removed as prime-rl's and others' loaders do), ``gold_standard_solution``,
  ``verification_info`` (``language``, ``test_cases`` of ``{type, input, output,
  fn_name}``), ``metadata`` (``time_limit``, ``memory_limit``, ``problem_url``); the
  README of open-r1/verifiable-coding-problems-python lists them.
- open-r1/codeforces with codeforces-submissions: see :mod:`.codeforces`.
- Code-Contests-Plus (ByteDance-Seed, ``1x``): see :func:`.sources.ccplus` (read as a
  loader pinned to the card's revision 96c85054 reads it; testlib's checkers in
  :mod:`.checkers`).
- LiveCodeBench (code_generation_lite): ``question_content``, ``public_test_cases``,
  ``private_test_cases`` (packed: base64 of zlib of a pickle of JSON), ``metadata``
  (``func_name``), ``platform``, ``question_id``, ``contest_date``, as its
  ``lcb_runner/benchmarks/code_generation.py`` reads them; it has no solutions.

The tests' encodings themselves are read once, by :mod:`problemtools_py.grading.shapes`
(which names each one's origin)."""
