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

The tests' encodings themselves are read once, by :mod:`problemtools_py.grading.shapes`
(which names each one's origin)."""
