"""A ``gnubg`` program on the PATH that is the scripted fake (tests/fake_gnubg.py).

The daemon and ``tavla-pi replay`` find gnubg on the PATH (:func:`find_gnubg`)
and run it as ``gnubg -t -q -r -s PREFS -p BRIDGE``; a wrapper of that name
runs the fake instead, told how to misbehave, so that a real process can be
made to die, hang or be slow where the test wants.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

FAKE = Path(__file__).with_name("fake_gnubg.py")


def fake_gnubg(bin_dir: Path, state: Path, **config: Any) -> Path:
    """Write ``bin_dir/gnubg`` running the fake with ``config`` (its counters in ``state``)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    state.mkdir(parents=True, exist_ok=True)
    settings = json.dumps({"state": str(state), **config})
    program = bin_dir / "gnubg"
    program.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(FAKE))}"
                       f" {shlex.quote(settings)} \"$@\"\n")
    program.chmod(0o755)
    return program
