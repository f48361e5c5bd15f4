"""Mutated variant files: the loader loads them or answers one line, never anything else.

The mutations are those of ``benchmarks/fuzz_yaml.py`` (text: characters, tokens, lines,
indentation; tree: values, keys, shared and self-containing subtrees), applied to the shipped
variant files and the example plugin's; hypothesis picks the seeds and shrinks a failure to a
small one. Each load must load, or raise VariantError with one line naming the file (and a
line of it, where it names one), within a CPU-time bound far above what the limits allow
(``time.process_time``: a busy machine does not count against it). The script runs the same
check for as long as one likes.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from script_helpers import load_script

from solitaire.core import Rules, load_variant_text

fuzz = load_script("fuzz_yaml")


def test_the_unmutated_files_load() -> None:
    for name, path in fuzz.FILES.items():
        assert fuzz.load_one(name, path.read_text(encoding="utf-8"))[0] == "loaded", name


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_a_mutated_file_loads_or_gets_one_line(seed: int) -> None:
    name, done, text = fuzz.mutant(random.Random(seed))
    outcome, message, cpu = fuzz.load_one(name, text)
    assert outcome in ("loaded", "refused"), f"{done}: {message}"
    assert cpu < fuzz.CPU_BOUND, f"{done}: {cpu:.2f} s of CPU time"


def test_the_slowest_valid_file_loads_within_the_bound() -> None:
    """The file the limits make slowest (64 piles, 32 option sets, the most values) still loads
    well within a second of CPU time."""
    text = fuzz.worst_case()
    defn = load_variant_text(text, "worst.yaml")
    assert len(defn.option_sets()) == 32 and len(Rules.of(defn).piles) == 64
    outcome, message, cpu = fuzz.load_one("worst.yaml", text)
    assert outcome == "loaded" and cpu < fuzz.CPU_BOUND, (message, cpu)


def test_refusals_are_checked_for_their_form() -> None:
    """The check itself: a message on two lines, or naming another file, or a line past the
    end, is not a well-formed refusal."""
    text = "a: 1\nb: 2\n"
    assert fuzz.well_formed("x.yaml:2: b: bad", "x.yaml", text)
    assert fuzz.well_formed("x.yaml: more than 65536 bytes", "x.yaml", text)
    assert not fuzz.well_formed("x.yaml:2: b: bad\nand more", "x.yaml", text)
    assert not fuzz.well_formed("y.yaml:2: b: bad", "x.yaml", text)
    assert not fuzz.well_formed("x.yaml:40: b: bad", "x.yaml", text)
