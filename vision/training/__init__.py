"""Offline tools that build the shipped index classifier from labelled photos (not used at run time)."""
