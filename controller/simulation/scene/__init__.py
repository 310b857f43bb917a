"""The demo's physical table: simulated players' moves made with cards the real vision reads."""
