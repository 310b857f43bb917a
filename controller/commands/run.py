"""`cardtable run [--config PATH]`: the table service (see controller/service/loop.py), with the web panel
on the config's [panel] address and port (controller/service/panel.py)."""
from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..club.publisher import ClubError, ClubPublisher
from ..journal import JournalError
from ..service.config import DEFAULT_PATH, ConfigError, load_config
from ..service.lock import ServiceLockError

if TYPE_CHECKING:
    from ..service.loop import TableService
    from ..service.panel import PanelServer

log = logging.getLogger(__name__)


def cmd_run(args: argparse.Namespace) -> int:
    """0 after a clean stop; 2 for a config refused (naming the key); 1 when the state directory or the
    journal cannot be used or another service runs. systemd restarts it on 1 and 2 (Restart=on-failure)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        return serve(args.config)
    except ConfigError as error:  # in the file, or found at start (a calibration file that does not load)
        print(f"cardtable run: refused: {args.config}: {error}", file=sys.stderr)
        return 2
    except (ServiceLockError, JournalError, ClubError) as error:  # refuse to play rather than lose what is sensed
        print(f"cardtable run: refused: {error}", file=sys.stderr)
        return 1


def serve(path: Path) -> int:
    config = load_config(path)
    from ..service.loop import TableService  # the session, vision and gpiozero load once the config is good
    from ..service.panel import PanelPortError, PanelServer

    service = TableService(config)
    try:  # binds the port now: one in use is refused before play starts
        panel = PanelServer.for_service(service)
    except PanelPortError as error:
        raise ConfigError("panel.port", str(error)) from None
    log.info("the panel: %s (console: %s)", panel.url(), panel.url("/console"))
    # A club evening: the hub and the journal also go to the club's broker (controller/club/).
    publisher = (ClubPublisher(config.club, service.hub, config.state_directory, on_fault=service.club_fault)
                 if config.club.enabled else None)
    run_until_signalled(service, panel, publisher)
    return 0


def run_until_signalled(service: TableService, panel: PanelServer | None,
                        publisher: ClubPublisher | None = None) -> None:
    """Play until SIGTERM or SIGINT; then the loop shuts down (journal closed, hub closed), then the panel
    and the club publisher (which sends what waits, then says offline)."""

    def on_signal(signum: int, frame: Any) -> None:
        service.stop()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    if panel is not None:
        panel.start()
    try:
        if publisher is not None:
            publisher.start()
        service.run()
    finally:
        if panel is not None:
            panel.stop()
        if publisher is not None:
            publisher.stop()


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="the table service: camera, buttons, peg board, journal, "
                                               "the web panel")
    parser.add_argument("--config", type=Path, default=DEFAULT_PATH, help=f"the config file (default {DEFAULT_PATH})")
    parser.set_defaults(func=cmd_run)
