"""Subcommands of the `cardtable` CLI, one module per command family."""
