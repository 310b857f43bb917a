"""Simulated tables: random legal play that writes hand histories (demo, benchmarks, property tests)."""
