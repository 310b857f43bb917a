"""Settings shared by the whole suite."""
from hypothesis import settings

# No per-example time limit: the suite runs beside other work on two cores, and speed is measured by the
# benchmarks in bench/, never by tests (hypothesis's 200 ms default failed test_pegboard_state under load).
settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")
