"""The table session: what the table senses becomes judged events (see README.md)."""
