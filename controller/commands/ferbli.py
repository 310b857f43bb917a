"""`cardtable ferbli rank CARDS...`: the Färbeln value of a four-card hand (name and comparable key)."""
from __future__ import annotations

import argparse
import json

from ..cards import parse_cards
from ..ferbli.hands import evaluate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ferbli", help="Färbeln (Ferbli) tools")
    commands = parser.add_subparsers(dest="ferbli_command", required=True, metavar="COMMAND")
    rank = commands.add_parser("rank", help="name and rank a four-card hand, e.g. AS KS QS AH")
    rank.add_argument("cards", nargs="+", help="four cards: rank then suit (A K Q J 10 9 8 7; S H D C)")
    rank.add_argument("--json", action="store_true", help="print one JSON object")
    rank.set_defaults(func=run_rank)


def run_rank(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards)  # a CardError or HandError is bad input: the CLI's boundary reports it
    value = evaluate(cards)
    if args.json:
        print(json.dumps({"cards": [str(c) for c in cards], "name": value.name,
                          "category": value.category.name.lower(), "key": list(value.key)}))
    else:
        print(f"{value.name}  (key {value.key[0]} {value.key[1]})")
    return 0
