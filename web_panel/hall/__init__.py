"""`cardtable hall`: the club evening's board over the club's MQTT broker (see README "Club evening").

    store = HallStore(config.database)              # the finished games, SQLite
    board = HallBoard(config.club, store)           # every table live, the standings (versions for the stream)
    HallSubscriber(config.broker, config.club, board, store).start()
    serve(create_hall_app(board, store), config.web.host, config.web.port)
"""
from .app import create_hall_app
from .board import HallBoard
from .store import HallStore
from .subscriber import HallSubscriber

__all__ = ["create_hall_app", "HallBoard", "HallStore", "HallSubscriber"]
