"""cardtable web panel: spectator page, dealer console, JSON API and live stream (see README)."""
from .app import create_app
from .ports import Archive, ConsoleAnswer, ConsolePort, GameStart
from .serving import make_server, serve

__all__ = ["create_app", "serve", "make_server", "ConsolePort", "ConsoleAnswer", "GameStart", "Archive"]
