"""The judge reads the pack it is handed: words of any script, a language's own negators, number words
that compound, a decimal comma, and families another package registers through the plugin hooks.

The packs here are the English pack with a few entries changed (conflictkit.testing.packs.derived_pack):
tests of a mechanism, not of a language.
"""

from __future__ import annotations

import itertools
import re
import sys
import types

import pytest
from pydantic import BaseModel

from conflictkit import hookimpl, lexicon
from conflictkit import registry as reg
from conflictkit.errors import ConfigError
from conflictkit.judges.atoms import LegalAtomsJudge, compare, extract
from conflictkit.judges.atoms.compare import Difference
from conflictkit.judges.atoms.family import Family
from conflictkit.judges.atoms.numbers import words_to_number
from conflictkit.judges.atoms.numgrammar import grammar
from conflictkit.judges.atoms.text import Atom
from conflictkit.lexicon import LexiconError, load
from conflictkit.testing.packs import derived_pack
from tests.judges.test_atoms_cases import judged

_CODES = itertools.count(1)


@pytest.fixture
def pack(tmp_path, monkeypatch):
    """Write a pack derived from English (``pack(changes)``) and return its code."""
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(tmp_path))
    lexicon.load.cache_clear()

    def make(changes: dict, tables: dict[str, str] | None = None) -> str:
        code = f"yy{next(_CODES)}"
        folder = derived_pack(tmp_path, code, changes=changes)
        for name, text in (tables or {}).items():
            (folder / "tables").mkdir(exist_ok=True)
            (folder / "tables" / f"{name}.yaml").write_text(text, encoding="utf-8")
        return code

    yield make
    lexicon.load.cache_clear()


def _with_negator(pack, word: str) -> str:
    en = load("en")
    return pack({"words.negators": [*en.data.words.negators, word],
                 "modality.free_negators": [*en.data.modality.free_negators, word]})


def test_a_word_with_an_accent_is_quoted_whole(pack):
    """'nicht fällig' was quoted as 'nicht f': words were letters a-z only."""
    code = _with_negator(pack, "nicht")
    j = judged("Die Zahlung ist fällig.", "Die Zahlung ist nicht fällig.", judge=LegalAtomsJudge(language=code))
    negation = next(r for r in j.reasons if r.type == "negation")
    assert negation.input == "nicht fällig" and j.p_conflict >= 0.7


def test_a_negator_counts_only_in_its_own_language(pack):
    code = _with_negator(pack, "nae")
    ref, inp = "The Supplier shall deliver the Goods to the Site.", "The Supplier shall nae deliver the Goods to the Site."
    assert any(r.type == "negation" for r in judged(ref, inp, judge=LegalAtomsJudge(language=code)).reasons)
    assert not any(a.family == "negation" for a in extract(inp).atoms)  # in English "nae" is no negator


def test_number_words_that_compound_are_read_inside_one_word(pack):
    code = pack({"numbers.units": {"ein": 1, "zwei": 2, "drei": 3, "fünf": 5, "zwanzig": 20, "dreißig": 30},
                 "numbers.scales": {"hundert": 100, "tausend": 1000}, "numbers.joiners": ["und"],
                 "numbers.fraction_phrases": [], "numbers.compounds": True})
    lex = load(code)
    assert words_to_number("dreiundzwanzig", lex) == 23
    assert words_to_number("zweitausendfünfhundert", lex) == 2500
    assert words_to_number("einhundertzwanzig", lex) == 120
    assert words_to_number("dreist", lex) is None  # a word not made of number words is no number
    found = [m.group() for m in grammar(lex).core.finditer("binnen dreiundzwanzig tagen, nicht zweite")]
    assert found == ["dreiundzwanzig"]


def test_a_decimal_comma_reads_points_as_thousands(pack):
    code = pack({"numbers.decimal_mark": ","})
    keys = [a.key for a in extract("The price is 1.000,50 EUR, a deposit of 1.000 EUR and a fee of 3,5%.", code).atoms
            if a.family == "number"]
    assert keys == ["money:1000.5:EUR", "money:1000:EUR", "percent:3.5:"]
    english = [a.key for a in extract("The price is 1.000 EUR.").atoms if a.family == "number"]
    assert english == ["money:1:EUR"]  # a decimal point in English


# -- a family another package adds ---------------------------------------------------------------------

class ChannelWords(BaseModel):
    """The words of the channels family: ``tables/channels.yaml``."""

    pattern: str


def _extract_channels(text: str, lex, mask) -> list[Atom]:
    words = lex.table("channels", ChannelWords)
    atoms = []
    for m in re.finditer(words.pattern, text.lower()):
        if mask.free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("channel", "channel", m.group(), text[m.start():m.end()], m.start(), m.end()))
    return atoms


def _compare_channels(ref, inp, context) -> list[Difference]:
    gone = {a.key for a in ref.of("channel")} - {b.key for b in inp.of("channel")}
    return [Difference("channel", "channel", k, None, f"'{k}' only in the reference") for k in sorted(gone)]


CHANNELS = Family(name="channels", claims=80, extract=_extract_channels, compare=_compare_channels, table="channels",
                  words=ChannelWords, weights={"channel": (0.6, "a notice channel on one side only")})


@pytest.fixture
def channels_plugin(monkeypatch):
    """A plugin module that registers the channels family, loaded as an installed plugin would be."""
    module = types.ModuleType("demo_channels_plugin")

    @hookimpl
    def register_families(register):
        register(CHANNELS)

    module.register_families = register_families
    monkeypatch.setitem(sys.modules, module.__name__, module)
    pm = reg.build_plugin_manager(load_entry_points=False)
    pm.register(module, name="channels")
    monkeypatch.setattr(reg, "_PM", pm)
    monkeypatch.setattr(reg, "_REGISTRY", reg.build_registry(pm))
    yield module
    reg.reset()


def test_a_plugin_adds_a_family_and_a_pack_its_words(pack, channels_plugin):
    code = pack({}, tables={"channels": "pattern: '\\b(?:e-?mail|courier|fax)\\b'\n"})
    judge = LegalAtomsJudge(language=code)
    assert judge.options.weights.channel == 0.6  # its weight is an option of the judge like the built-in ones'
    ref = "Notices shall be sent by courier or e-mail to the address above."
    inp = "Notices shall be sent by e-mail to the address above."
    reasons = judged(ref, inp, judge=judge).reasons
    assert [r.detail for r in reasons if r.type == "channel"] == ["'courier' only in the reference"]
    assert "channels" in [f.name for f in reg.get_registry().families()]
    assert reg.get_registry().family_package("channels") == "demo_channels_plugin"


def test_a_pack_without_the_words_of_a_registered_family_is_refused(pack, channels_plugin):
    code = pack({})
    with pytest.raises(LexiconError, match=rf"language pack '{code}' has no table 'channels'"):
        LegalAtomsJudge(language=code)


def test_two_families_of_one_name_are_refused():
    registry = reg.Registry()
    registry.add_family(CHANNELS, "demo-one")
    impostor = Family(name="channels", claims=81, extract=_extract_channels, compare=_compare_channels)
    with pytest.raises(ConfigError, match="rule family 'channels' is registered twice: by demo-one and by demo-two"):
        registry.add_family(impostor, "demo-two")
    with pytest.raises(ConfigError, match="demo-three: register_families registered 'channels', not a Family"):
        registry.add_family("channels", "demo-three")


def test_the_builtin_families_come_through_the_hook():
    pm = reg.build_plugin_manager(load_entry_points=False)
    families = reg.build_registry(pm).families()
    assert {f.name for f in families} >= {"negation", "modality", "numbers", "dates", "places", "parties", "content"}
    assert {reg.build_registry(pm).family_package(f.name) for f in families} == {"conflictkit"}
    assert compare(extract("It shall not be paid."), extract("It shall be paid."))  # and they judge
