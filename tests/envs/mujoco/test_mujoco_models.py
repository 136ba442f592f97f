"""How MuJoCo model files are loaded: refused when unreadable or not a file, loaded again when edited."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium
import pytest
from lane import REPO

import rlpool

ASSETS = Path(gymnasium.__file__).parent / "envs" / "mujoco" / "assets"


def test_an_edited_model_file_is_loaded_again(tmp_path: Path) -> None:
    xml = tmp_path / "pendulum.xml"
    shutil.copy(ASSETS / "inverted_pendulum.xml", xml)
    before = rlpool.make("InvertedPendulum-v5", xml_file=str(xml))  # keeps the first model alive
    assert before.single_action_space.high[0] == 3.0
    text = xml.read_text()
    assert 'ctrlrange="-3 3"' in text
    xml.write_text(text.replace('ctrlrange="-3 3"', 'ctrlrange="-2 2"'))
    os.utime(xml, ns=(1, 1))  # a different mtime even on a coarse clock
    after = rlpool.make("InvertedPendulum-v5", xml_file=str(xml))
    assert after.single_action_space.high[0] == 2.0
    before.close()
    after.close()


@pytest.mark.timeout(60)
def test_a_fifo_as_model_file_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "model.xml"
    os.mkfifo(fifo)
    # In a child process: a loader that opens the FIFO would block forever.
    code = (
        f"import rlpool\ntry:\n    rlpool.make('Ant-v5', xml_file={str(fifo)!r})\n"
        "except ValueError as e:\n    print(e)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=50,
                         env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert "is not a regular file" in run.stdout, run.stdout + run.stderr


def test_missing_model_file_names_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot be read: No such file"):
        rlpool.make_spec("Ant-v5", xml_file=str(tmp_path / "missing.xml"))
