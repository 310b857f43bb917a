"""cardtable vision: camera sources, card detection, recognition and tracking (knows nothing of games)."""
