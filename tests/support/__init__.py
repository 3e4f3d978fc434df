"""What the tests and the benchmarks share: the suite's own services, real workers, bot
sources, positions and harnesses (no tests here; pytest collects none of these)."""
