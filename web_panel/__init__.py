"""cardtable web panel: spectator page, dealer console, JSON API and live stream."""
