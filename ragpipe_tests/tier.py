"""The tier of the test that runs now. The fast tier (`pytest -m "not slow"`) starts no
PostgreSQL and no JVM: the servers below refuse to start for a test outside conftest.SLOW,
so a new test that needs one cannot slip into the fast tier unnoticed."""

running_slow_test = True  # set by conftest before each test; outside pytest (a script), anything goes


def require_slow_tier(server: str) -> None:
    if not running_slow_test:
        raise RuntimeError(f"a test outside the slow tier starts {server}: add it to conftest.SLOW")
