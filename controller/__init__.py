"""cardtable controller: card model, game engines, hand histories and the `cardtable` command."""
