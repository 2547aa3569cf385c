"""``gradeserver``: grading over HTTP. server (the aiohttp application: SandboxFusion's
/run_code and /submit, our /grade, /health, /metrics), requestfields (what a request's
fields mean), fusion and runfiles (SandboxFusion's shapes), connections (bounded),
metrics (Prometheus text), backends (where the work runs), replicas (N processes, one
address)."""
