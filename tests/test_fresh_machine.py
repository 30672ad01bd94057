"""The README's two commands on a fresh machine: ``make test`` installs what it needs,
Debian's chromium included, and ``.ci/run`` is nothing but ``make test``."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from conftest import ROOT


def _fake_bin(tmp_path):
    """A PATH with only what the recipe needs, and an apt-get that records its calls and
    'installs' chromium (a script) when asked to."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("id", "env"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    calls = tmp_path / "apt-calls"
    apt = bin_dir / "apt-get"
    apt.write_text(f"""#!/bin/sh
echo "$@" >> {calls}
case " $* " in *" install "*chromium*) printf '#!/bin/sh\\n' > {bin_dir}/chromium;
  /bin/chmod +x {bin_dir}/chromium;; esac
""")
    apt.chmod(0o755)
    return bin_dir, calls


@pytest.mark.skipif(os.geteuid() != 0, reason="the recipe uses sudo when not root")
def test_make_installs_chromium_when_it_is_missing(tmp_path):
    bin_dir, calls = _fake_bin(tmp_path)
    make = shutil.which("make")
    out = subprocess.run([make, "-s", "chromium"], cwd=ROOT, env={"PATH": str(bin_dir)},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = calls.read_text().splitlines()
    assert lines[0].split()[0] == "update"
    assert lines[1].split()[0] == "install" and lines[1].split()[-1] == "chromium"
    assert (bin_dir / "chromium").exists()


def test_make_leaves_an_installed_chromium_alone(tmp_path):
    bin_dir, calls = _fake_bin(tmp_path)
    (bin_dir / "chromium").write_text("#!/bin/sh\n")
    (bin_dir / "chromium").chmod(0o755)
    out = subprocess.run([shutil.which("make"), "-s", "chromium"], cwd=ROOT,
                         env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert not calls.exists()


def test_make_test_needs_chromium_and_ci_is_just_make_test():
    makefile = (ROOT / "Makefile").read_text()
    test_rule = next(line for line in makefile.splitlines() if line.startswith("test:"))
    assert "chromium" in test_rule.split(":", 1)[1].split()
    commands = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == "make test"
    assert not any("apt-get" in c for c in commands)
