"""The wheel and sdist `python -m build` makes, and the wheel installed and run outside the checkout
(issue 30: an install that read the firmware from the source tree died in `cardtable demo`).

Built once per run (the xdist workers share it under a lock), from a copy of the checkout so that the build
writes nothing into it, then installed into a fresh venv in a temporary folder; every command runs with its
working directory there, so nothing can come from the checkout.

Dependencies: the fresh venv gets the wheel alone (`pip install --no-deps --no-index`) and sees this test
venv's site-packages through a .pth file, so the install is offline and takes a few seconds; a full
`pip install` would download about 100 MB (OpenCV, ONNX Runtime, numpy, Flask...) from PyPI on every run.
A .pth line only adds its folder to sys.path: that folder's own .pth files (the editable install's finder
pointing at the checkout) are not run, so cardtable's packages can only come from the wheel, which
test_installed_code_is_the_wheels checks.
"""
from __future__ import annotations

import csv
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller import cli
from controller.pegboard.link import LinkConfig, PegBoardLink
from controller.pegboard.state import BoardState

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
PACKAGES = ("controller", "vision", "web_panel", "firmware")
# Files the commands read, besides the modules: the models, the rendered faces, the crib table, the panel.
DATA = ("vision/models/generic.json", "vision/models/suit.onnx", "vision/models/rank.onnx",
        "vision/models/pip.onnx", "vision/assets/faces.npz", "vision/assets/LICENSE.faces",
        "controller/cribbage/crib_table.json", "web_panel/templates/page.html",
        "web_panel/templates/spectator.html",
        "web_panel/templates/console.html", "web_panel/static/panel.css", "web_panel/static/live.js",
        "web_panel/hall/templates/hall.html", "web_panel/hall/templates/evenings.html",
        "web_panel/hall/static/hall.js", "web_panel/hall/static/hall.css",
        # the repository's systemd/, through the package's link controller/install/systemd
        "controller/install/systemd/cardtable.service", "controller/install/systemd/cardtable.sysusers",
        "controller/install/systemd/99-cardtable-pegboard.rules")
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.pyc", "*.egg-info", "build", "dist",
                                    ".pytest_cache", ".mypy_cache", ".hypothesis", "*.mpy")
HISTORY = ROOT / "tests" / "data" / "histories" / "cribbage" / "two_player_skunk.jsonl"
PHOTOS = ROOT / "tests" / "data" / "cards"


@dataclass(frozen=True)
class Built:
    folder: Path

    @property
    def wheel(self) -> Path:
        return self.folder / "dist" / f"cardtable-{VERSION}-py3-none-any.whl"

    @property
    def sdist(self) -> Path:
        return self.folder / "dist" / f"cardtable-{VERSION}.tar.gz"

    @property
    def venv(self) -> Path:
        return self.folder / "venv"

    def command(self, *argv: str) -> list[str]:
        """`cardtable ARGV` (or `python ARGV` when argv starts with -c) from the installed venv."""
        return [str(self.venv / "bin" / ("python" if argv[0] == "-c" else "cardtable")), *argv]

    def run(self, *argv: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.command(*argv), cwd=cwd, env=self.env(cwd), capture_output=True, text=True,
                              timeout=timeout)

    def start(self, *argv: str, cwd: Path, **env: str) -> subprocess.Popen[str]:
        return subprocess.Popen(self.command(*argv), cwd=cwd, env={**self.env(cwd), **env},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def env(self, cwd: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        return {**env, "PATH": f"{self.venv / 'bin'}:{env.get('PATH', '')}",
                "CARDTABLE_ERROR_LOG": str(cwd / "errors.log")}


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Built:
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent  # one folder for all the run's workers
    with open(shared / "wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = Built(shared / "wheel")
        if not (result.folder / "ready").exists():
            shutil.rmtree(result.folder, ignore_errors=True)
            _build_and_install(result)
            (result.folder / "ready").touch()
    return result


def _build_and_install(built: Built) -> None:
    source = built.folder / "source"
    shutil.copytree(ROOT, source, ignore=NOT_COPIED)
    # the sdist first, then the wheel from the unpacked sdist (build's default): an sdist missing a file
    # the wheel needs fails here too. --no-isolation: the dev extra's setuptools, no download.
    _check([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(built.folder / "dist"), str(source)])
    _check([sys.executable, "-m", "venv", "--without-pip", str(built.venv)])
    python = str(built.venv / "bin" / "python")
    _check([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index",
            str(built.wheel)])
    # only now: pip must not see the checkout's editable cardtable as installed already
    site = _check([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    Path(site, "test-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")


def _check(command: list[str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A working directory outside the checkout."""
    assert not tmp_path.is_relative_to(ROOT)
    return tmp_path


def test_wheel_holds_every_module_the_firmware_and_the_models(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        manifest = json.loads(wheel.read("vision/models/generic.json"))
    modules = {p.relative_to(ROOT).as_posix() for package in PACKAGES for p in (ROOT / package).rglob("*.py")
               if "__pycache__" not in p.parts}
    assert {"firmware/main.py", "firmware/board.py", "firmware/app.py", "firmware/pegcfg.py"} <= modules
    assert sorted(modules - names) == []  # a module of the checkout missing from the wheel
    assert sorted(set(DATA) - names) == []
    assert sorted({f"vision/models/{m}" for m in manifest["members"]} - names) == []  # the CNN's members
    unexpected = [n for n in names if n.split("/")[0] not in (*PACKAGES, f"cardtable-{VERSION}.dist-info")
                  or "__pycache__" in n or n.endswith((".pyc", ".mpy"))]
    assert unexpected == []


def test_sdist_holds_the_sources_and_install_files_not_the_tests(built: Built) -> None:
    with tarfile.open(built.sdist) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "firmware/main.py",
            "vision/models/generic_0.onnx", *DATA} <= names
    assert [n for n in names if n.startswith(("tests", "bench")) or "__pycache__" in n or n.endswith(".pyc")] == []


def test_installed_code_is_the_wheels(built: Built, outside: Path) -> None:
    probe = ("import controller, firmware, vision, web_panel\n"
             "from controller.commands.firmware import firmware_files\n"
             "from vision.cnn import DEFAULT_CNN\n"
             "print('\\n'.join([controller.__file__, firmware.__file__, vision.__file__, web_panel.__file__,"
             " str(DEFAULT_CNN), *map(str, firmware_files())]))")
    result = built.run("-c", probe, cwd=outside)
    assert result.returncode == 0, result.stderr
    paths = [Path(line) for line in result.stdout.splitlines()]
    assert len(paths) > 6 and all(p.is_relative_to(built.venv) and p.is_file() for p in paths), paths


def test_the_shipped_wiring_is_printed_to_edit_and_flash(built: Built, outside: Path) -> None:
    result = built.run("firmware", "wiring", cwd=outside)
    assert (result.returncode, result.stdout) == (0, (ROOT / "firmware" / "pegcfg.py").read_text())


def test_version_comes_from_the_package_metadata(built: Built, outside: Path) -> None:
    result = built.run("--version", cwd=outside)
    assert (result.returncode, result.stdout.strip()) == (0, f"cardtable {VERSION}")


def test_install_service_writes_the_packages_unit_running_the_wheels_cardtable(built: Built, outside: Path) -> None:
    (outside / "root").mkdir()
    result = built.run("install-service", "--root", str(outside / "root"), cwd=outside)
    assert result.returncode == 0, result.stderr
    unit = (outside / "root" / "etc/systemd/system/cardtable.service").read_text()
    shipped = (ROOT / "systemd" / "cardtable.service").read_text()
    assert unit == shipped.replace("/opt/cardtable/venv/bin/cardtable", str(built.venv / "bin" / "cardtable"))


def test_demo_plays_a_game_and_its_history_replays(built: Built, outside: Path) -> None:
    demo = built.run("demo", "--game", "ferbli", "--seed", "1", "--reads", "1", "--speed", "0", "--games", "1",
                     "--no-panel", "--state", "state", "--history", "game.jsonl", cwd=outside, timeout=300)
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr  # 1: the table's result differed
    replay = built.run("replay", "game.jsonl", cwd=outside)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout.splitlines()[-1])["type"] == "summary"


def test_cribbage_demo_pegs_on_the_firmware_until_ctrl_c(built: Built, outside: Path) -> None:
    # The cribbage demo starts the virtual peg board from the installed firmware (what issue 30 saw fail);
    # a whole game takes minutes, so it runs until the first point is pegged, then is interrupted.
    proc = built.start("demo", "--seed", "1", "--reads", "1", "--speed", "0", "--port", "0", cwd=outside)
    try:
        assert proc.stdout is not None
        narration = []
        for line in proc.stdout:
            narration.append(line)
            if line.strip().startswith("+"):  # "+1 Bo: go": a point scored, sent to the board
                break
        assert narration and narration[-1].strip().startswith("+"), "".join(narration[-20:])
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "stopped after 0 game(s)" in out, err  # a clean stop: the demo is the service


def test_replay_of_a_sample_says_what_the_checkout_says(built: Built, outside: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(HISTORY, outside / HISTORY.name)
    installed = built.run("replay", HISTORY.name, cwd=outside)
    assert cli.main(["replay", str(HISTORY)]) == 0
    assert (installed.returncode, installed.stdout) == (0, capsys.readouterr().out)
    assert '"winner"' in installed.stdout.splitlines()[-1]


def test_vision_detect_names_only_cards_on_the_photo(built: Built, outside: Path) -> None:
    with open(PHOTOS / "manifest.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    photo = PHOTOS / rows[0]["path"]
    truth = {r["rank"] + r["suit"] for r in rows if r["path"] == rows[0]["path"]}
    shutil.copy(photo, outside / "photo.jpg")
    result = built.run("vision", "detect", "photo.jpg", "--json", cwd=outside)
    assert result.returncode == 0, result.stderr
    named = {c["card"] for c in json.loads(result.stdout)[0]["cards"]} - {"unknown"}
    assert named and named <= truth  # precision first: no card that is not there


def test_firmware_simulate_answers_the_link_and_stops_on_ctrl_c(built: Built, outside: Path) -> None:
    link = outside / "pegboard"
    proc = built.start("firmware", "simulate", "--link", str(link), cwd=outside)
    try:
        assert proc.stdout is not None
        assert "virtual peg board on" in proc.stdout.readline()
        state = BoardState.new_game([(255, 0, 0), (0, 0, 255)])
        with PegBoardLink(LinkConfig(port=str(link))) as board:
            board.set_state(state)
            assert board.wait_confirmed(state, 10.0)
            assert board.board_info is not None and (board.board_info.tracks, board.board_info.holes) == (2, 121)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()  # never leave a simulated board running behind a failed test
    assert (proc.returncode, err) == (0, "") and not link.is_symlink()


def test_the_service_serves_the_panel_pages_from_the_wheel(built: Built, outside: Path) -> None:
    (outside / "config.toml").write_text('state_directory = "state"\n[camera]\nsource = "synthetic:1"\n'
                                         '[pegboard]\nenabled = false\n[panel]\nhost = "127.0.0.1"\nport = 0\n')
    proc = built.start("run", "--config", "config.toml", cwd=outside, GPIOZERO_PIN_FACTORY="mock",
                       GPIOZERO_MOCK_PIN_CLASS="mockpwmpin")
    try:
        assert proc.stderr is not None
        log = []
        for line in proc.stderr:  # the service logs where its panel listens (port 0: any free one)
            log.append(line)
            if "the panel: " in line:
                break
        assert log and "the panel: " in log[-1], "".join(log[-20:])
        base = log[-1].split("the panel: ")[1].split()[0]
        with urllib.request.urlopen(base, timeout=30) as page:
            assert b"/static/spectator.js" in page.read()
        with urllib.request.urlopen(f"{base}static/spectator.js", timeout=30) as script:
            assert script.read() == (ROOT / "web_panel" / "static" / "spectator.js").read_bytes()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-2000:]


def test_the_pi_install_steps_install_the_venv_the_unit_runs_and_never_editable() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### Installing on a Raspberry Pi", 1)[1].split("\n### ", 1)[0]
    steps = section.split("```sh\n", 1)[1].split("```", 1)[0]
    (venv,) = re.findall(r"python3 -m venv (?:--\S+ )*(\S+)", steps)
    pip_lines = [line for line in steps.splitlines() if " install " in line and "/bin/pip " in line]
    assert pip_lines and all(line.split()[1].startswith(f"{venv}/bin/pip") for line in pip_lines)
    assert not any(re.search(r"\s(-e|--editable)\s", line) for line in pip_lines)
    unit = (ROOT / "systemd" / "cardtable.service").read_text()
    (exec_start,) = re.findall(r"^ExecStart=(\S+)", unit, re.MULTILINE)
    assert exec_start == f"{venv}/bin/cardtable"
