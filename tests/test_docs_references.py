"""The repository documents what it implements: no file points at a rules, spec or seeds document that a
clone does not have, and every rule id the tests and the code cite is defined in its game's RULES.md (so a
test naming FB-R12 leads a reader to the rule it checks)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = {game: ROOT / "controller" / game / "RULES.md" for game in ("cribbage", "femkort", "ferbli")}

# A path through a folder named rules, spec or seeds (URLs are taken out first: they are not files here).
FOLDER_PATH = re.compile(r"(?<![\w.-])((?:[\w.-]+/)*(?:rules|spec|seeds)/[\w.*/-]*)")
URL = re.compile(r"\b[a-z]+://\S+")

# The ids each game's rules define, as code and tests cite them. Cribbage's variants are V-<name>,
# Femkort's V1..V5 (and its readings I-1, I-2): those two short forms are only looked for in the tests.
IDS = {
    "cribbage": re.compile(r"\b(CR-\d+|V-[a-z][a-z-]*[a-z])\b"),
    "femkort": re.compile(r"\b(FK-R\d+|GAP-FK-\d+|I-\d+|V\d+)\b"),
    "ferbli": re.compile(r"\b(FB-R\d+|GAP-FB-\d+)\b"),
}
BOLD = re.compile(r"\*\*([^*]+)\*\*")


def tracked(*suffixes: str) -> list[Path]:
    """The repository's files with these suffixes: git's list in a checkout, else every file but hidden
    folders (an unpacked source tree)."""
    if (ROOT / ".git").exists():
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        paths = [ROOT / name for name in names.decode().split("\0") if name]
    else:
        paths = [p for p in ROOT.rglob("*") if not any(part.startswith(".") for part in p.relative_to(ROOT).parts)]
    return sorted(p for p in paths if p.suffix in suffixes and p.is_file())


def folder_references(text: str) -> list[str]:
    return [match.rstrip(".") for match in FOLDER_PATH.findall(URL.sub("", text))]


def exists(reference: str, cited_in: Path) -> bool:
    """Relative to the repository or to the citing file's folder; a pattern must match something."""
    return any(list(base.glob(reference)) if "*" in reference else (base / reference).exists()
               for base in (ROOT, cited_in.parent))


def defined_ids(game: str) -> set[str]:
    """The ids a RULES.md defines: those written in bold, as each rule's heading is (**FK-R15 GAP-FK-2**)."""
    text = RULES[game].read_text(encoding="utf-8")
    return {found for span in BOLD.findall(text) for found in IDS[game].findall(span)}


def test_the_finder_sees_a_reference_to_a_missing_rules_file() -> None:
    missing = "rules" + "/cribbage.md"  # spelt in two parts, so this file itself does not cite it
    pattern = "seeds" + "/*.txt"
    line = f"written from {missing} (and {pattern}), see https://example.org/" + "spec" + "/x.md"
    assert folder_references(line) == [missing, pattern]
    assert not exists(missing, ROOT / "README.md")
    assert exists("controller/*/RULES.md", ROOT / "README.md")


def test_no_file_refers_to_a_rules_spec_or_seeds_path_the_repository_lacks() -> None:
    dangling = [f"{path.relative_to(ROOT)}: {reference}"
                for path in tracked(".py", ".md")
                for reference in folder_references(path.read_text(encoding="utf-8", errors="replace"))
                if not exists(reference, path)]
    assert dangling == []


def test_each_rules_document_defines_its_games_rules() -> None:
    # The documents are whole: every rule number of each game from the first to the last.
    assert {f"CR-{n}" for n in range(1, 16)} <= defined_ids("cribbage")
    assert {f"FK-R{n}" for n in range(1, 20)} | {f"V{n}" for n in range(1, 6)} <= defined_ids("femkort")
    assert {f"GAP-FK-{n}" for n in range(1, 14)} | {"I-1", "I-2"} <= defined_ids("femkort")
    assert {f"FB-R{n}" for n in range(1, 41)} | {f"GAP-FB-{n}" for n in range(1, 13)} <= defined_ids("ferbli")
    assert {"V-muggins", "V-five-card", "V-three", "V-four", "V-match"} <= defined_ids("cribbage")


def test_every_rule_id_cited_in_the_tests_and_the_code_is_defined_in_its_games_rules() -> None:
    defined = {game: defined_ids(game) for game in IDS}
    undefined = sorted({f"{path.relative_to(ROOT)}: {found}"
                        for path in tracked(".py", ".md") if path.relative_to(ROOT).parts[0] in ("tests", "controller")
                        for game, pattern in IDS.items()
                        for found in pattern.findall(path.read_text(encoding="utf-8"))
                        if found not in defined[game]})
    assert undefined == []
