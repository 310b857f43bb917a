"""Offline tools that build the shipped index classifier from labelled photos, and measure it on deck designs
never trained on (not used at run time)."""
