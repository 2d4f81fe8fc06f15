"""Reserved names (issue 35), as properties: every case, width, accent, separator and
digit-for-letter variant of a name kept for the site reads as it and is refused; a name
that does not read as one is kept exactly as typed (NFKC), never cut; a name too long is
refused whole."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roses.server.http.names import (
    NAME_MAX,
    RESERVED_NAMES,
    chosen_name,
    look_alike_key,
    normal_name,
    reserved,
)

# What a reader takes for each letter: the letter's case, its fullwidth form, an accented
# form, a Cyrillic or Greek look-alike, a digit.
LOOK_ALIKES = {
    "a": "aAａＡàáâäаΑ4", "d": "dDｄＤď", "m": "mMｍＭ", "i": "iIｉＩíìïі1lL", "n": "nNｎＮñ",
    "s": "sSｓＳѕ5$", "t": "tTｔＴт7", "r": "rRｒＲ", "o": "oOｏＯóöоΟ0", "e": "eEｅＥéèеΕ3",
    "y": "yYｙＹуýΥ",
}  # fmt: skip
SEPARATORS = ["", "", "", "_", ".", "-"]


@st.composite
def disguised(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(RESERVED_NAMES))
    letters = [draw(st.sampled_from(LOOK_ALIKES[c])) if c in LOOK_ALIKES else c for c in word]
    joined = letters[0]
    for letter in letters[1:]:
        joined += draw(st.sampled_from(SEPARATORS)) + letter
    return joined.replace("$", "s")  # '$' is no name character: its reading is tested apart


@given(disguised())
def test_every_disguise_of_a_reserved_name_is_refused(name: str) -> None:
    assert reserved(name), (name, look_alike_key(name))
    with pytest.raises(ValueError, match="kept for the site"):
        chosen_name(name)


@given(st.text(st.characters(categories=("Lu", "Ll", "Nd")), min_size=2, max_size=NAME_MAX))
def test_a_name_that_reads_as_no_reserved_one_is_kept_whole(name: str) -> None:
    try:
        normal = normal_name(name)  # the general rule (tested in test_hardening_names)
    except ValueError:
        return
    if reserved(normal):
        return
    assert chosen_name(name) == normal == unicodedata.normalize("NFKC", name)  # never cut


@given(st.text(st.characters(categories=("Lu", "Ll")), min_size=NAME_MAX + 1, max_size=60))
def test_a_name_too_long_is_refused_never_cut(name: str) -> None:
    if len(unicodedata.normalize("NFKC", name)) <= NAME_MAX:
        return
    with pytest.raises(ValueError):
        chosen_name(name)


def test_ordinary_names_near_the_reserved_ones_are_free() -> None:
    for name in ("Adam", "Rosie", "Rosa", "Systems", "Moderato", "Admiral", "Lina", "Ann"):
        assert chosen_name(name) == name
